"""EMAIL_URL: one variable for the mail server (django-environ's e-mail URL format)."""
from typing import Any

import environ


def email_settings(url: str) -> dict[str, Any]:
    """The Django settings an e-mail URL sets, e.g. `smtp+tls://user:pass@host:587`.

    An empty URL sets nothing (EMAIL_BACKEND then applies). Parts the URL leaves out keep
    Django's defaults; user and password are percent-decoded."""
    if not url.strip():
        return {}
    parsed = environ.Env.email_url_config(url)
    return {key: value for key, value in parsed.items()
            if key.startswith("EMAIL_") and value not in (None, "")}
