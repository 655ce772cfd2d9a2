"""Input errors of the pure engines: a stable code and the values a message needs."""
from config.refusals import CodedRefusal


class CodedError(CodedRefusal, ValueError):
    """Input no game could produce; ``code`` and ``params`` feed the API's error body."""
