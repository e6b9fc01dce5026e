"""The rules every suite shares (Tests/integration/suite_guard.py): under CI=1 a skip fails and the run
must be inside the network namespace; no process is left behind; fixed seeds."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "integration"))

pytest_plugins = ("suite_guard",)
