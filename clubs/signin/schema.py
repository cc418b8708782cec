"""Tell the OpenAPI schema how score apps authenticate."""

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from clubs.signin.scopes import SCOPES
from clubs.signin.token_scopes import scope_for_method


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    target_class = "clubs.signin.authentication.ApiTokenAuthentication"
    name = "TokenAuth"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>` (or `Bearer <key>`): a personal token, made on the "
            "account page or at /api/v1/tokens/, with scopes and clubs as an OAuth2 token's.",
        }


class AppTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    """OAuth2 for apps: each operation names the one scope it needs."""

    target_class = "clubs.signin.authentication.AppTokenAuthentication"
    name = "OAuth2"

    def get_security_requirement(self, auto_schema: Any) -> dict[str, list[str]]:
        return {self.name: [scope_for_method(auto_schema.view, auto_schema.method)]}

    def get_security_definition(self, auto_schema: object) -> dict[str, Any]:
        return {
            "type": "oauth2",
            "description": (
                "Sign in with OAuth2 (docs/api.md). Phone and web apps: the authorization code "
                "with PKCE (S256, required). TVs and table devices: the device authorization "
                "grant (RFC 8628), which OpenAPI 3.0 cannot state as a flow: POST "
                "`/oauth/device-authorization/` (client_id, scope), show the user_code, poll "
                "`/oauth/token/` with grant_type `urn:ietf:params:oauth:grant-type:device_code`. "
                "The person picks the clubs at consent; the token's scope names them "
                "(`club:<id>`), and it sees no other club. Revoke at `/oauth/revoke/`; "
                "confidential clients introspect at `/oauth/introspect/`. The same scopes bind "
                "personal tokens."
            ),
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": "/oauth/authorize/",
                    "tokenUrl": "/oauth/token/",
                    "refreshUrl": "/oauth/token/",
                    "scopes": dict(SCOPES),
                }
            },
        }
