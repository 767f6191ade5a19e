"""Schemathesis hooks of `npm run fuzz` (scripts/fuzz.mjs names this file in its schemathesis.toml)."""
from typing import Any

import schemathesis


def _prototype_key(value: Any) -> bool:
    """Whether a JSON value holds a `__proto__` key, or `prototype` under `constructor`, at any depth."""
    stack = [(value, None)]
    while stack:
        item, parent = stack.pop()
        if isinstance(item, dict):
            for key, child in item.items():
                if key == "__proto__" or (key == "prototype" and parent == "constructor"):
                    return True
                stack.append((child, key))
        elif isinstance(item, list):
            stack.extend((child, None) for child in item)
    return False


@schemathesis.hook
def filter_body(context: Any, body: Any) -> bool:
    """No body with a key that could set a prototype: the service refuses it on purpose (400 naming the key)."""
    return not _prototype_key(body)
