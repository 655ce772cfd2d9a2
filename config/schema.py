"""The OpenAPI schema says what the server does: every error it can answer, and the constraints
it enforces on input.

Two parts, both wired in config/settings.py:

- ``MusterAutoSchema`` (DRF's ``DEFAULT_SCHEMA_CLASS``) adds to each operation the error statuses
  its view can give, decided once here from the view (its permissions, throttles, method, path
  parameters) rather than by a decorator on each of the 96 operations. A view's own
  ``@extend_schema(responses=...)`` for a status is kept; a bare one gets the error body.
- ``postprocess`` (a drf-spectacular postprocessing hook) adds the error components, refuses the
  NUL character in every input string (the parsers answer 400 ``nul_character``: PostgreSQL
  cannot store it), and lists the registered game systems where a request names one.

The sweep (tests/site/test_api_robustness.py, and its fuller form run by .ci/run) drives every
operation with schemathesis' checks, so a status or constraint missing here fails there."""
from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import AllowAny

ERROR_REF = {"$ref": "#/components/schemas/Error"}
FIELD_ERRORS_REF = {"$ref": "#/components/schemas/FieldErrors"}

# The one error body: config/api_errors.py answers every refusal with it.
ERROR = {
    "type": "object",
    "description": "A refusal: a stable code (clients test it) and a sentence in the reader's language.",
    "properties": {
        "code": {"type": "string", "description": "stable, e.g. transition_not_allowed"},
        "detail": {"type": "string", "description": "the sentence, in the request's language"},
        "params": {"type": "object", "additionalProperties": True,
                   "description": "the values the sentence names, when there are any"},
    },
    "required": ["code", "detail"],
}
# A malformed body (api-v1: "DRF's field-error map"): each field (or non_field_errors) with its
# messages, nested as the body is (a list of units gives a list of maps).
FIELD_ERRORS = {
    "type": "object",
    "description": "A malformed body: each field with its messages (non_field_errors for the whole body).",
    "minProperties": 1,
    "additionalProperties": {"anyOf": [{"type": "array"}, {"type": "object"}]},
}

# A string without NUL: the parsers refuse it (config/parsers.py) before any view reads the data.
NO_NUL = "^[^\\u0000]*$"

# Who may call is anyone, whoever they are: reference data and the stateless tools (missions,
# dice, list validation, each game system's tools). Everything else may answer 401 and 403.
OPEN_MODULES = ("systems.", "missions.api", "armylists.systems_api")
OPEN_VIEWS = frozenset({
    "accounts.services.SignupView", "accounts.services.TokenView",
    "armylists.api.ChartListView", "armylists.api.ValidateListView",
})
# Reads of the events' public pages (a draft or a hidden game is a 404, never a 401 or 403).
PUBLIC_READ_MODULES = ("events.api",)
# ...except the reads that check who asks (lists before they are published).
CHECKED_READS = frozenset({"events.api.players.PlayerListView"})

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})

DESCRIPTIONS = {
    400: "bad input: a malformed body, query or upload (over the size limit), a NUL character, "
         "or a refusal of the request's content",
    401: "credentials are needed",
    403: "this user may not do this",
    404: "an object named in the path does not exist or is hidden from this user",
    409: "the object's state forbids this now",
    429: "too many attempts: try again later",
    503: "the database is unreachable for a moment (Retry-After)",
}


def view_name(view: Any) -> str:
    cls = type(view)
    return f"{cls.__module__}.{cls.__name__}"


def is_open(view: Any, method: str) -> bool:
    """Whether any caller, signed in or not, gets the same answer (never a 401 or 403)."""
    if any(permission is not AllowAny for permission in view.permission_classes):
        return False
    name = view_name(view)
    if name in CHECKED_READS:
        return False
    if name in OPEN_VIEWS or type(view).__module__.startswith(OPEN_MODULES):
        return True
    return _public_read(view, method)


def _public_read(view: Any, method: str) -> bool:
    return method == "GET" and type(view).__module__.startswith(PUBLIC_READ_MODULES)


def error_statuses(view: Any, method: str, path: str) -> list[int]:
    """The error statuses an operation can give (api-v1, "Conventions for every endpoint")."""
    statuses = [400, 503]  # any request: an oversized body, a NUL in the URL; an outage
    if "{" in path:
        statuses.append(404)
    open_ = is_open(view, method)
    if not open_:
        statuses += [401, 403]
    if not open_ and (method in UNSAFE or ("{" in path and not _public_read(view, method))):
        # A state-changing call can meet a state that forbids it; so can a read of an object
        # whose context has states (a campaign turn not open yet, an event that has no teams).
        statuses.append(409)
    if view.throttle_classes:
        statuses.append(429)
    return sorted(statuses)


def error_response(status: int) -> dict[str, Any]:
    schema = {"anyOf": [ERROR_REF, FIELD_ERRORS_REF]} if status == 400 else ERROR_REF
    return {"description": DESCRIPTIONS[status], "content": {"application/json": {"schema": schema}}}


class MusterAutoSchema(AutoSchema):
    """drf-spectacular's AutoSchema, plus the error answers of each operation."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        responses = operation.setdefault("responses", {})
        # The view's own error statuses (a read that answers 409) count as well as the rules'.
        declared = {int(code) for code in responses if code.isdigit() and int(code) in DESCRIPTIONS}
        for status in sorted(declared | set(error_statuses(self.view, self.method, path))):
            given = responses.get(str(status))
            if given is None or "content" not in given:  # absent, or a bare OpenApiResponse()
                responses[str(status)] = error_response(status)
        return operation


def _body_media_types(body: dict | None, schemas: dict) -> None:
    """JSON for every body, and multipart where it can carry a file (a roster upload). The
    parsers also read forms, but a form cannot say what the nested bodies (a list of units, a
    map of territories) say: documented, it would promise what the server cannot read."""
    if not body:
        return
    content = body["content"]
    uploads = "multipart/form-data" in content and has_file(content["multipart/form-data"], schemas)
    for media_type in list(content):
        if media_type != "application/json" and not (uploads and media_type == "multipart/form-data"):
            del content[media_type]


def has_file(schema: Any, schemas: dict) -> bool:
    """Whether ``schema`` (following references) has a binary string: a file to upload."""
    pending, seen = [schema], set()
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if item.get("format") == "binary":
                return True
            ref = item.get("$ref")
            if isinstance(ref, str) and ref not in seen:
                seen.add(ref)
                pending.append(schemas.get(ref.rsplit("/", 1)[-1]))
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return False


def _strings(schema: Any):
    """Every string schema inside ``schema`` (properties, items, combinations), read-only ones too."""
    pending = [schema]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            if item.get("type") == "string" or (isinstance(item.get("type"), list) and "string" in item["type"]):
                yield item
            pending.extend(value for key, value in item.items() if key != "enum")
        elif isinstance(item, list):
            pending.extend(item)


def _refuse_nul(schema: Any) -> None:
    for string in _strings(schema):
        if "pattern" not in string and "enum" not in string and "format" not in string:
            string["pattern"] = NO_NUL


def _game_system_enum(schema: dict) -> None:
    from systems.registry import game_systems  # the registry reads the installed systems' modules

    if schema.get("type") == "string" and "enum" not in schema:
        schema["enum"] = sorted(system.slug for system in game_systems())


def postprocess(result: dict, generator: Any, request: Any, public: bool) -> dict:
    """Error components; NUL refused and game systems listed in every request's input."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"] = ERROR
    schemas["FieldErrors"] = FIELD_ERRORS
    for name, component in schemas.items():
        if name.endswith("Request"):  # COMPONENT_SPLIT_REQUEST: what clients send
            _refuse_nul(component)
            game_system = component.get("properties", {}).get("game_system")
            if game_system is not None:
                _game_system_enum(game_system)
    for item in result.get("paths", {}).values():
        for operation in item.values():
            for parameter in operation.get("parameters", []) if isinstance(operation, dict) else []:
                schema = parameter.get("schema", {})
                if parameter.get("name") == "game_system":
                    _game_system_enum(schema)
                if parameter.get("in") == "query":
                    _refuse_nul(schema)
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            _body_media_types(body, schemas)
            for media in (body or {}).get("content", {}).values():
                if "$ref" not in media.get("schema", {}):
                    _refuse_nul(media.get("schema"))
    return result
