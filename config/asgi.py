import os

from django.core.asgi import get_asgi_application

from config.startup import serving_process_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_asgi_application()
serving_process_ready(load_pages=True)
