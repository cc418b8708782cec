import os

from django.core.asgi import get_asgi_application

from config.startup import raise_file_limit, serving_process_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.local")
application = get_asgi_application()
serving_process_ready(load_pages=True)
# Every live stream is an open connection: the process opens as many files as it may.
raise_file_limit()
