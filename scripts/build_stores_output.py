"""The snapshot directory scripts/build_stores.py writes: built in a hidden staging folder inside it and moved in
whole at the end, so that a failed or interrupted run leaves the old snapshot as it was and nothing of its own."""
import atexit
import os
import shutil
import signal
import tempfile

# Everything the builder writes, and so all that a new snapshot replaces: other files in the directory (notes, a
# provenance file such as stores.md) are the user's. A platform file this run does not write is removed all the same,
# since it names roots of the roots/ folder being replaced.
SNAPSHOT_FILES = ("FORMAT", "android.txt", "ios.txt", "macos.txt", "mozilla.txt", "apple-ct-logs.cnf",
                  "roots.index")
SNAPSHOT_FOLDERS = ("roots",)


class Staging:
    """The staging folder inside `out` (a path: `os.path.join(staging, name)`); `replace()` moves the built snapshot
    into `out`. The folder is removed when the process ends, however it ends but SIGKILL: atexit runs after a normal
    end, fail()'s sys.exit, an exception and Ctrl-C, and SIGTERM and SIGHUP are made to exit the same way. So is `out`
    when this run made it and left it empty."""

    def __init__(self, out):
        self.out = out
        self.made_out = not os.path.exists(out)
        os.makedirs(out, exist_ok=True)
        # Inside `out`, so that the moves at the end stay on one file system.
        self.path = tempfile.mkdtemp(prefix=".build-stores.", dir=out)
        atexit.register(self.remove)
        for number in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, exit_on_signal)

    def __fspath__(self):
        return self.path

    def remove(self):
        shutil.rmtree(self.path, ignore_errors=True)
        if self.made_out and os.path.isdir(self.out) and not os.listdir(self.out):
            os.rmdir(self.out)

    def replace(self):
        """Removes the builder's files from `out`, then moves this run's in."""
        for name in SNAPSHOT_FOLDERS:
            shutil.rmtree(os.path.join(self.out, name), ignore_errors=True)
        for name in SNAPSHOT_FILES:
            path = os.path.join(self.out, name)
            if os.path.lexists(path):
                os.remove(path)
        for name in os.listdir(self.path):
            os.rename(os.path.join(self.path, name), os.path.join(self.out, name))


def exit_on_signal(number, frame):
    # SystemExit runs the atexit handlers, as any other failure does.
    raise SystemExit(128 + number)
