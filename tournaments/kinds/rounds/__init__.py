"""Rounds, then a cut: everyone plays the rounds, the top by points go on to a semi-final (or
straight to a final), whose top by points play the final."""
