"""Translation marker for the pure rules package.

``rules`` cannot import Django, yet its error messages are user-visible. Message templates are
wrapped in :func:`gettext_noop`, an identity function whose *name* is one of the keywords that
``django-admin makemessages`` (xgettext) extracts, so the English templates land in the French
catalogue. Translation happens at display time, on the Django side, through
:meth:`rules.errors.RuleError.translated`.
"""


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged; only marks it for translation extraction."""
    return message
