"""Tell the OpenAPI schema how score apps authenticate."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[misc]
    target_class = "clubs.authentication.ApiTokenAuthentication"
    name = "TokenAuth"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <key>` (or `Bearer <key>`); create keys at /api/v1/tokens/.",
        }
