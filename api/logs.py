"""The server's logs: readable lines (``--log-format text``, the default) or one JSON object a line
(``--log-format json``) with the time, level, logger and message, and, where the line is about one
action, its game, seat, command id and outcome (api/ws.py passes them as ``extra``).

No log line carries a seat token, an invite code or a dice seed: the server never logs them (tokens
are kept only hashed, api/seats.py; the seed only in the game's secret key, until the game ends).
"""

from __future__ import annotations

import json
import logging
import time

#: The fields an action's log line carries besides the message.
ACTION_FIELDS = ("game", "seat", "command_id", "outcome")


class JsonFormatter(logging.Formatter):
    """One JSON object a line."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name in ACTION_FIELDS:
            if hasattr(record, name):
                line[name] = getattr(record, name)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, format_: str) -> None:
    """The root logger's one handler (standard error) at `level`, in `format_` (text or json)."""
    handler = logging.StreamHandler()
    if format_ == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=level, handlers=[handler], force=True)
