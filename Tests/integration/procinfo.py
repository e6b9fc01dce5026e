"""What the kernel says about a process, for the tests and the benchmarks."""


def vm_hwm_kb(pid: int) -> int:
    """The process's peak resident set in KB (VmHWM), 0 if it is gone.

    wait4's ru_maxrss would not do: on Linux a child forked from this Python
    process starts with the parent's high-water mark."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0
