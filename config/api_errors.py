def api_exception_handler(exc, context):  # placeholder, replaced below
    from rest_framework.views import exception_handler

    return exception_handler(exc, context)
