#!/usr/bin/env python3
"""Lists public symbols of the SDK modules that have no `///` doc comment, and exits 1 if any.

Usage: scripts/undocumented-public.py [MODULE ...]   (default: the shipped SDK modules)

A symbol is a declaration marked `public` or `open`, a case of a public enum, or a requirement
of a public protocol. It counts as documented when the nearest line above it (attributes such as
`@discardableResult` skipped) is a `///` line or closes a `/** */` block. Text-based on purpose:
it sees Apple-only files behind `#if canImport(...)` that a Linux build never compiles.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
MODULES = [
    "GatehouseClientCore", "GatehouseVerification", "GatehouseAuth", "GatehousePurchases", "GatehousePurchasesTesting", "GatehouseWorkflows",
    "GatehouseManagedAPI", "GatehousePossession",
]

PUBLIC = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:nonisolated|final|static|class|override|mutating|indirect)\s+)*(?:public|open)\s+(?!import\b)")
TYPE = re.compile(r"\b(enum|protocol|struct|class|actor|extension)\b")
REQUIREMENT = re.compile(r"^\s*(?:static\s+|mutating\s+)*(func|var|init|subscript|associatedtype)\b")
CASE = re.compile(r"^\s*(?:indirect\s+)?case\s+\w")
STRING = re.compile(r'"(?:\\.|[^"\\])*"')


def code_of(line):
    """The line without string literals and `//` comments, so braces inside them are not counted."""
    return STRING.sub('""', line).split("//", 1)[0]


def documented(lines, index):
    above = index - 1
    while above >= 0 and re.match(r"^\s*@\w+", lines[above]) and not PUBLIC.match(lines[above]):
        above -= 1
    if above < 0:
        return False
    text = lines[above].strip()
    return text.startswith("///") or text.endswith("*/")


def scan(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    missing = []
    # One entry per open brace: the kind of scope it opened ("enum", "protocol" or None) and whether it is public.
    scopes = []
    pending = None
    for index, line in enumerate(lines):
        code = code_of(line)
        stripped = code.strip()
        innermost = scopes[-1] if scopes else (None, False)
        is_public = bool(PUBLIC.match(code))
        symbol = is_public
        if not symbol and innermost[1] and innermost[0] == "enum" and CASE.match(code):
            symbol = True
        if not symbol and innermost[1] and innermost[0] == "protocol" and REQUIREMENT.match(code):
            symbol = True
        if symbol and not stripped.startswith("public extension") and not documented(lines, index):
            missing.append(f"{path.relative_to(ROOT)}:{index + 1}: {line.strip()}")
        kind = TYPE.search(code)
        if kind and (is_public or stripped.startswith(kind.group(1))):
            pending = (kind.group(1), is_public or (kind.group(1) == "extension"))
        for char in code:
            if char == "{":
                scopes.append(pending if pending else (None, False))
                pending = None
            elif char == "}" and scopes:
                scopes.pop()
    return missing


def main():
    modules = sys.argv[1:] or MODULES
    missing = []
    for module in modules:
        for path in sorted((ROOT / "Sources" / module).rglob("*.swift")):
            missing += scan(path)
    for entry in missing:
        print(entry)
    print(f"{len(missing)} public symbol(s) without a doc comment in {', '.join(modules)}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
