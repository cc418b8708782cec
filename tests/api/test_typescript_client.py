"""A web or phone app's first step in TypeScript: types generated from the served schema with
openapi-typescript (its default settings) compile under ``tsc --strict``, and a program reads
the always-present fields of the answers with no ``!``, no ``?.`` and no cast; a field the
schema says may be null, or a body field the operation does not take, is refused by the
compiler, so the strictness is real. The tools are pinned in clients/typescript (package.json
and package-lock.json), installed by ``make install``."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.slow

TOOLS = Path(__file__).resolve().parents[2] / "clients" / "typescript"
BIN = TOOLS / "node_modules" / ".bin"

CLUBS = '"/api/v1/clubs/"'
SESSIONS = '"/api/v1/clubs/{club_slug}/sessions/"'
DEALS = '"/api/v1/clubs/{club_slug}/games/{game_id}/deals/"'
REPLAY = '"/api/v1/clubs/{club_slug}/webhooks/{endpoint_id}/replay/"'

# What an app writes: each answer's type taken from the path and status it comes from.
APP = f"""
import type {{ components, paths }} from "./schema";

type Schemas = components["schemas"];
type Json<T> = T extends {{ content: {{ "application/json": infer B }} }} ? B : never;
type ClubPage = Json<paths[{CLUBS}]["get"]["responses"][200]>;
type SessionPage = Json<paths[{SESSIONS}]["get"]["responses"][200]>;
type Accepted = Json<paths[{DEALS}]["post"]["responses"][202]>;
type Refused = Json<paths[{DEALS}]["post"]["responses"][400]>;
type ReplayBody = Json<paths[{REPLAY}]["post"]["requestBody"]>;
type Replayed = Json<paths[{REPLAY}]["post"]["responses"][202]>;

export function clubNames(page: ClubPage): string[] {{
  return page.results.map(
    (club) => `${{club.name.trim()}} (${{club.slug.length}}, ${{club.role}})`,
  );
}}

export function nightLines(page: SessionPage): string[] {{
  const lines = page.results.map(
    (night) =>
      `${{night.id.toFixed(0)}} ${{night.name.trim()}} ${{night.status}} ` +
      `${{night.deal_count + night.table_count}} ${{night.updated_at.slice(0, 10)}}`,
  );
  return [`${{page.count.toFixed(0)}} nights`, ...lines];
}}

export function pollUrl(accepted: Accepted): string {{
  return new URL(accepted.url).pathname + `#${{accepted.id.toFixed(0)}} ${{accepted.status}}`;
}}

export function refusal(refused: Refused): string {{
  return `${{refused.error.code}}: ${{refused.error.message.trim()}}`;
}}

export function webhookLine(hook: Schemas["EndpointOutput"]): string {{
  return `${{hook.url.trim()}} ${{hook.events.join(",")}} ${{hook.health}} ${{hook.failures + 1}}`;
}}

export const replayBody: ReplayBody = {{ since: "2026-11-25T20:00:00Z" }};

export function replayed(answer: Replayed): number {{
  return answer.events + answer.pending;
}}
"""

# What the compiler must refuse: a nullable field used as if always there, a body field the
# operation does not take.
WRONG = f"""
import type {{ components, paths }} from "./schema";

type Json<T> = T extends {{ content: {{ "application/json": infer B }} }} ? B : never;
type ReplayBody = Json<paths[{REPLAY}]["post"]["requestBody"]>;

export function closedDay(night: components["schemas"]["SessionOutput"]): string {{
  return night.closed_at.slice(0, 10);
}}

export const tooMuch: ReplayBody = {{ since: "2026-11-25T20:00:00Z", until: "now" }};
"""

STRICT = ["--strict", "--noEmit", "--target", "es2022", "--module", "esnext",
          "--moduleResolution", "bundler", "--lib", "es2022,dom"]  # fmt: skip


def _run(*command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=300)


@pytest.mark.django_db
def test_a_strict_typescript_client_built_from_the_served_schema(tmp_path):
    assert (BIN / "tsc").exists() and (BIN / "openapi-typescript").exists(), (
        "the TypeScript tools are not installed: run make install (npm ci in clients/typescript)"
    )
    schema = APIClient().get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200, schema.content
    (tmp_path / "schema.json").write_bytes(schema.content)
    generated = _run(str(BIN / "openapi-typescript"), "schema.json", "-o", "schema.d.ts",
                     cwd=tmp_path)  # fmt: skip
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0 and "warn" not in said.lower(), said
    # The program unwraps nothing: no non-null assertion, no optional chaining, no cast.
    assert not re.search(r"\w!\.|\?\.|\bas\s+\w|<\w+>\s*\w", APP)
    (tmp_path / "app.ts").write_text(APP)
    compiled = _run(str(BIN / "tsc"), *STRICT, "app.ts", cwd=tmp_path)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr

    (tmp_path / "wrong.ts").write_text(WRONG)
    refused = _run(str(BIN / "tsc"), *STRICT, "wrong.ts", cwd=tmp_path)
    errors = refused.stdout
    assert refused.returncode != 0
    assert "'night.closed_at' is possibly 'null'" in errors, errors
    assert "'until' does not exist in type" in errors, errors
