"""Pages about clubs. They read through the same selectors as the API."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from clubs import selectors


def home(request: HttpRequest) -> HttpResponse:
    clubs = selectors.club_list_for_user(user=request.user)
    return render(request, "home.html", {"clubs": clubs})
