# Checks the tool-info module ladr.py without running ladr or BenchExec: cmdline() on
# fake tasks, determine_result() on fake outputs. Needs ladr.py installed as
# benchexec.tools.ladr; scripts/test-benchexec runs it with the venv's python.

from benchexec import result
from benchexec.tools.ladr import Tool
from benchexec.tools.template import BaseTool2, UnsupportedFeatureException
from benchexec.util import ProcessExitCode


def determine(lines, value=0, signal=None, termination_reason=None):
    exit_code = ProcessExitCode.create(value=None if signal else value, signal=signal)
    output = BaseTool2.RunOutput([line + "\n" for line in lines])
    run = BaseTool2.Run(["ladr"], exit_code, output, termination_reason)
    return Tool().determine_result(run)


def test_determine_result():
    race = "race: write of `x` at f.c:3:20 in thread 1 and read of `x` at f.c:4:31"
    verdict = "SV-COMP result: "
    cases = [
        (["no race found", verdict + "true"], 0, result.RESULT_TRUE_PROP),
        ([race, verdict + "false(no-data-race)"], 1, result.RESULT_FALSE_DATARACE),
        (["unknown: timeout", verdict + "unknown"], 3, result.RESULT_UNKNOWN),
        ([verdict + "true", "warning: after the verdict"], 0, result.RESULT_TRUE_PROP),
        ([verdict + "false"], 1, "ERROR (unexpected verdict 'false')"),
        ([verdict + "maybe"], 0, "ERROR (unexpected verdict 'maybe')"),
        (["garbage", "more garbage"], 0, "ERROR (no SV-COMP result)"),
        ([], 0, "ERROR (no SV-COMP result)"),
        (["error: property unreach-call is not supported"], 2, result.RESULT_ERROR),
    ]
    for lines, value, expected in cases:
        got = determine(lines, value)
        assert got == expected, f"{lines} (exit {value}): {got!r}, not {expected!r}"
    # Killed by BenchExec or a signal: BenchExec reports TIMEOUT, OOM or the signal.
    got = determine(["parsing"], signal=9, termination_reason="cputime")
    assert got == result.RESULT_ERROR, got
    got = determine(["parsing"], signal=11)
    assert got == result.RESULT_ERROR, got


def cmdline(
    options=(), files=("t.i",), prp="no-data-race.prp", task_options=None, cputime=None
):
    task = BaseTool2.Task.with_files(files, property_file=prp, options=task_options)
    limits = BaseTool2.ResourceLimits(cputime=cputime)
    return Tool().cmdline("ladr", list(options), task, limits)


def test_cmdline():
    ilp32 = {"language": "C", "data_model": "ILP32"}
    lp64 = {"language": "C", "data_model": "LP64"}
    ladr = ["ladr", "--svcomp"]
    prp = ["--property-file", "no-data-race.prp"]
    cases = [
        ({}, [*ladr, *prp, "t.i"]),
        ({"prp": None}, [*ladr, "t.i"]),
        ({"task_options": ilp32}, [*ladr, *prp, "--32", "t.i"]),
        ({"task_options": lp64}, [*ladr, *prp, "--64", "t.i"]),
        ({"task_options": ilp32, "options": ["--64"]}, [*ladr, "--64", *prp, "t.i"]),
        ({"options": ["--svcomp", "-D", "N=3"]}, [*ladr, "-D", "N=3", *prp, "t.i"]),
        ({"cputime": 900}, [*ladr, *prp, "--timeout", "810", "t.i"]),
    ]
    for kwargs, expected in cases:
        got = cmdline(**kwargs)
        assert got == expected, f"{kwargs}: {got}, not {expected}"
    for kwargs in [
        {"files": ("a.c", "b.c")},
        {"task_options": {"language": "C", "data_model": "ILP64"}},
    ]:
        try:
            got = cmdline(**kwargs)
        except UnsupportedFeatureException:
            continue
        raise AssertionError(f"{kwargs}: {got}, not UnsupportedFeatureException")


if __name__ == "__main__":
    test_determine_result()
    test_cmdline()
    print("test_ladr.py: determine_result and cmdline checks passed")
