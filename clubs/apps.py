from django.apps import AppConfig
from django.core import checks


class ClubsConfig(AppConfig):
    name = "clubs"

    def ready(self) -> None:
        from corsheaders.signals import check_request_enabled
        from django.db.models.signals import post_delete, post_save
        from oauth2_provider.models import get_application_model

        from clubs.signin import cors, schema  # noqa: F401  (schema: the OpenAPI auth extension)
        from config.database_role import superuser_check

        checks.register(superuser_check, checks.Tags.security, deploy=True)
        # CORS for the origins of registered apps, forgotten when an app changes.
        check_request_enabled.connect(cors.origin_allowed, dispatch_uid="clubs.signin.cors")
        application = get_application_model()
        post_save.connect(cors.forget_origins, sender=application, dispatch_uid="clubs.signin.cors")
        post_delete.connect(
            cors.forget_origins, sender=application, dispatch_uid="clubs.signin.cors"
        )
