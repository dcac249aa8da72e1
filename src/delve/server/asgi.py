import os
import warnings

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "delve.server.settings")
# WhiteNoise streams static files with a synchronous iterator; Django's ASGI handler serves it
# from a thread and warns on every file. Static files are small and long-cached, so that is fine.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous iterators")
application = get_asgi_application()
