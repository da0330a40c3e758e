"""Where the shared specs are: the first ``shared/spec`` folder beside or above the repo."""

from pathlib import Path


def shared_spec(name: str) -> Path:
    for parent in Path(__file__).resolve().parents:
        candidate = parent / "shared" / "spec" / name
        if candidate.exists():
            return candidate
    raise FileNotFoundError(f"shared/spec/{name} not found beside or above the repository")
