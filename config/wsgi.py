import os

from django.core.wsgi import get_wsgi_application

from config.startup import serving_process_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_wsgi_application()
serving_process_ready(load_pages=True)
