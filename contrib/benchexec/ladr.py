# BenchExec tool-info module for ladr, a data-race finder for pthread C programs.
# Install it as benchexec/tools/ladr.py (see README.md beside this file).

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.template import ToolNotFoundException, UnsupportedFeatureException


class Tool(benchexec.tools.template.BaseTool2):
    """
    Tool info for ladr, which finds data races in multi-threaded C programs by
    lazy sequentialization and bounded model checking with CBMC.
    It always runs ladr in SV-COMP mode (--svcomp), passes the property file with
    --property-file and the task's data model as --32 (ILP32) or --64 (LP64).
    ladr checks only the property no-data-race and finds CBMC through --cbmc,
    $LADR_CBMC or PATH. In SV-COMP mode ladr writes its violation witness to
    witness.graphml in the working directory unless --witness FILE is given.
    """

    RESULT_PREFIX = "SV-COMP result:"
    RESULTS = {
        "true": result.RESULT_TRUE_PROP,
        "false(no-data-race)": result.RESULT_FALSE_DATARACE,
        "unknown": result.RESULT_UNKNOWN,
    }
    DATA_MODEL_OPTIONS = {"ILP32": "--32", "LP64": "--64"}

    def executable(self, tool_locator):
        # `cargo install --root DIR` puts ladr into DIR/bin,
        # target/release and release archives have it at the top.
        try:
            return tool_locator.find_executable("ladr", subdir="bin")
        except ToolNotFoundException:
            return tool_locator.find_executable("ladr")

    def version(self, executable):
        return self._version_from_tool(executable, line_prefix="ladr")

    def name(self):
        return "ladr"

    def project_url(self):
        # ladr has no public web page yet.
        return None

    def cmdline(self, executable, options, task, rlimits):
        options = list(options)
        if "--svcomp" not in options:
            options.insert(0, "--svcomp")
        if task.property_file:
            options += ["--property-file", task.property_file]
        data_model = self._data_model_option(task)
        if data_model and "--32" not in options and "--64" not in options:
            options.append(data_model)
        # ladr deepens its bounds while time lasts: give it most of the run's limit, so it
        # still prints the answer of the deepest bounds it finished before being killed.
        limit = getattr(rlimits, "cputime", None) or getattr(rlimits, "walltime", None)
        if limit and "--timeout" not in options:
            options += ["--timeout", str(max(1, int(limit * 0.9)))]
        return [executable, *options, task.single_input_file]

    def _data_model_option(self, task):
        if not isinstance(task.options, dict) or "data_model" not in task.options:
            return None
        data_model = task.options["data_model"]
        if data_model not in self.DATA_MODEL_OPTIONS:
            raise UnsupportedFeatureException(
                f"ladr does not support data_model '{data_model}'"
            )
        return self.DATA_MODEL_OPTIONS[data_model]

    def determine_result(self, run):
        for line in reversed(run.output):
            if line.startswith(self.RESULT_PREFIX):
                verdict = line[len(self.RESULT_PREFIX) :].strip()
                return self.RESULTS.get(
                    verdict, f"{result.RESULT_ERROR} (unexpected verdict '{verdict}')"
                )
        if run.was_terminated or run.exit_code.value != 0:
            # BenchExec names the reason: the limit, the signal or the exit code.
            return result.RESULT_ERROR
        return f"{result.RESULT_ERROR} (no SV-COMP result)"
