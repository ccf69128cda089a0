"""davinci-sim from Python: the simulator's run driver, without the binary.

    import davinci_sim
    report = davinci_sim.simulate("models/gemm_256.pto")
    print(report["total_cycles"])

simulate() returns what ``davinci-sim --report-json`` writes, as a dict (its
"schema_version" is REPORT_SCHEMA_VERSION); config_params() lists the
hardware parameters a config may set. docs/python.md is the reference.

Repeated calls: SystemC elaborates a model once per process, so this
interpreter never elaborates one. Each simulate() forks a child process that
compiles and simulates the program and exits; the report comes back through
a private temporary folder. Calls are independent (nothing carries over
from one to the next), cost a fork each, and may run in parallel from
several threads (the interpreter's lock is released while a child runs).
"""
import json
import os

from . import _native

__all__ = ["Error", "simulate", "run", "config_params", "REPORT_SCHEMA_VERSION"]

# The --report-json format simulate() returns (sim/trace/report.h).
REPORT_SCHEMA_VERSION = _native.REPORT_SCHEMA_VERSION

# The names program text and config dicts go by in messages and the report.
TEXT_PROGRAM_NAME = "<program>"
DICT_CONFIG_NAME = "<config dict>"


class Error(Exception):
    """A run that did not produce a report.

    str(error) and .message are what davinci-sim prints on stderr (for a bad
    program, the ``file:line:col: error: ...`` diagnostic with its source
    line and caret); .status is davinci-sim's exit status (2 for a bad
    program, config or argument, 3 for max_cycles, ...; -N when signal N
    ended the run), .timed_out whether the timeout ended it, and .stdout
    what the run printed before it stopped.
    """

    def __init__(self, message, status, timed_out=False, stdout=""):
        super().__init__(message)
        self.message = message
        self.status = status
        self.timed_out = timed_out
        self.stdout = stdout


def _is_text(program):
    """Program text has a line break; a path has none."""
    return "\n" in program


def _request(program, config, shapes, params, settings, functional, timeout, program_name):
    q = _native.Request()
    if isinstance(program, os.PathLike):
        program = os.fspath(program)
    if not isinstance(program, str):
        raise TypeError("program: expected a path or program text (str), got %s" % type(program).__name__)
    if _is_text(program):
        q.program, q.program_text, q.has_text = program_name or TEXT_PROGRAM_NAME, program, True
    else:
        if program_name is not None:
            raise TypeError("program_name names program text; %r is a path" % program)
        q.program = program
    if isinstance(config, os.PathLike):
        config = os.fspath(config)
    if isinstance(config, dict):
        try:
            q.config_text = json.dumps(config)
        except (TypeError, ValueError) as e:
            raise TypeError("config: the dict is not JSON: %s" % e) from None
        q.config = DICT_CONFIG_NAME
    elif isinstance(config, str):
        q.config = config
    elif config is not None:
        raise TypeError("config: expected a path, a dict or None, got %s" % type(config).__name__)
    # As the command line spells them, so that they are checked as it checks
    # --shape, --param and --set.
    q.shapes = ["%s=%s" % (name, ",".join(str(d) for d in dims)) for name, dims in (shapes or {}).items()]
    q.params = ["%s=%s" % (name, value) for name, value in (params or {}).items()]
    q.settings = [(key, json.dumps(value)) for key, value in (settings or {}).items()]
    q.functional = bool(functional)
    q.timeout = float(timeout or 0)
    return q


# davinci-sim's exit status for a failure of the machine (README.md "Exit
# status").
_EXIT_ENVIRONMENT = 4


def _run(request):
    try:
        return _native.run(request)
    except RuntimeError as e:  # no temporary folder, no process: the machine's failure
        raise Error("davinci_sim: error: %s" % e, _EXIT_ENVIRONMENT) from None


def _text(b):
    return b.decode("utf-8", "replace")


def simulate(program, config=None, shapes=None, params=None, settings=None, functional=False, timeout=None,
             program_name=None):
    """Compiles and simulates a program; returns its report as a dict.

    program: a .pto file's path, or the program's text; text is told from a
        path by its line break (a one-line program ends with "\\n").
        Diagnostics and the report name text program_name (default
        "<program>").
    config: None (the built-in default), a JSON config's path, or a dict of
        the same JSON (named "<config dict>" in messages).
    shapes: {"x": [1, 3, 224, 224]}, as --shape binds None dimensions.
    params: {"layers": 2}, as --param sets pypo.param constants.
    settings: {"ddr.bytes_per_cycle": 64}, as --set applies keys over config.
    functional: as --functional (values computed; the report is the same
        format).
    timeout: seconds after which the run is killed (Error with .timed_out).

    The dict is the --report-json file (schema_version REPORT_SCHEMA_VERSION).
    Raises Error with davinci-sim's message and exit status when the run
    makes no report. Each call runs in a forked child process (see the
    module's docstring).
    """
    done = _run(_request(program, config, shapes, params, settings, functional, timeout, program_name))
    if done.status != 0:
        message = _text(done.stderr).rstrip("\n")
        if done.timed_out:
            message = "davinci_sim: error: the run was killed after the timeout of %g s" % timeout
        elif done.status < 0 and not message:
            message = "davinci_sim: error: the run was ended by signal %d" % -done.status
        elif not message:
            message = "davinci_sim: error: the run ended with exit status %d and no message" % done.status
        raise Error(message, done.status, done.timed_out, _text(done.stdout))
    return json.loads(_text(done.report))


def run(program, config=None, shapes=None, params=None, settings=None, functional=False, timeout=None,
        program_name=None):
    """simulate()'s run without the exception: an object with .status,
    .timed_out, .report (bytes, the JSON when status is 0), .stdout, .stderr
    (bytes), .cpu_seconds and .max_rss_kib (the child's peak, which includes
    the pages it shares with this interpreter at the fork: an upper bound).
    For callers that record failures and measurements (scripts/sweep.py)."""
    return _run(_request(program, config, shapes, params, settings, functional, timeout, program_name))


def config_params():
    """The hardware parameters, as declared once (sim/arch/config_params.def):
    a list of dicts with "key" (the dotted path a config or settings uses),
    "kind", "unit", "default" (the built-in default's value), "default_text"
    (as --help-config prints it) and "meaning"."""
    return _native.config_params()
