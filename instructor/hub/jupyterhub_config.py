"""JupyterHub's configuration for a room: started by ``make hub`` (tools/setup.py hub).

Everything is in :func:`mapteach.classroom.hub.configure`; the variables below are how
``make hub`` passes its options (ROOM, INSTRUCTOR, the passwords) to it.
"""

import os
from pathlib import Path

from mapteach.classroom.hub import configure

c = get_config()  # noqa: F821 (JupyterHub defines it for its configuration files)
configure(
    c,
    checkout=Path(__file__).resolve().parents[2],
    room=Path(os.environ["MAPTEACH_HUB_ROOM"]) if os.environ.get("MAPTEACH_HUB_ROOM") else None,
    instructor=os.environ.get("MAPTEACH_INSTRUCTOR") or "instructor",
    password=os.environ.get("MAPTEACH_HUB_PASSWORD"),
    admin_password=os.environ.get("MAPTEACH_HUB_ADMIN_PASSWORD"),
)
