"""Settings: the profile the environment names, each one module over ``config.settings_base``.

- **A club's instance** (``duplitarot serve``, ``./dev serve``): ``DUPLITAROT_DATA_DIR`` names
  its data folder (``instance.datadir``): ``config.settings_instance``.
- **A developer's checkout** (``./dev``, ``manage.py``) with ``DJANGO_DEBUG=1``:
  ``config.settings_developer``.
- **Production**, debug off: ``config.settings_production``.

Each profile module can also be named by ``DJANGO_SETTINGS_MODULE`` itself; this one is the
default everywhere (``manage.py``, ``duplitarot``, WSGI, ASGI, Celery) and chooses for them.
Every variable the settings read is documented in ``.env.example``.
"""

from config.environment import data_dir, debug, read_dotenv

if data_dir() is not None:
    from config.settings_instance import *  # noqa: F403
else:
    read_dotenv()  # DJANGO_DEBUG may come from the .env file
    if debug():
        from config.settings_developer import *  # noqa: F403
    else:
        from config.settings_production import *  # noqa: F403
