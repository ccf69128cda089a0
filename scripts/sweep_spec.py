"""Reads and checks a sweep file, and expands it into points.

A sweep file (JSON; configs/sweeps/ has examples):

    {
      "name": "l1_vs_clusters",                   # output folder name (optional: the file's name)
      "description": "...",                       # optional
      "base_config": "configs/cluster.json",      # optional: the built-in default otherwise
      # or, instead, several machines compared, the axis "config":
      # "base_configs": {"default": "configs/cluster.json", "910b2": "configs/ascend_910b2.json"},
      "programs": [                               # a path, or an object with shapes/params
        "models/resnet_block.pto",
        {"program": "models/super_resolution.pto",
         "shapes": [{"img": [1, 1, 240, 320]}, {"img": [1, 1, 480, 640]}]},
        {"program": "layers.pto", "params": [{"layers": 1}, {"layers": 2}]}
      ],
      "grid": {"cluster.l1_kib": [128, 256, 512], "chip.clusters": [1, 2, 4]},   # optional
      "plots": [{"x": "cluster.l1_kib", "y": "total_cycles"}]   # optional
    }

A plot's x is an axis: a grid key, "config" (with base_configs), a
dimension of a program's shapes, "shape:TENSOR.DIM" (the dimension DIM,
from 0, of tensor TENSOR's bound shape: "shape:a.0"), or a param,
"param:NAME". Without a grid (or with an empty one) each program's shapes
and params are the points.

A program's "params" are its pypo.param constants, passed as davinci-sim
--param NAME=VALUE (a list of objects, one point each, like "shapes"; JSON
true/false are passed as True/False).

Config keys are davinci-sim's dotted parameter names (`davinci-sim
--help-config`); a point's configuration is the base configuration with the
point's grid values set. Relative paths are taken from the current
directory, as davinci-sim takes its own arguments.

Every problem is a SpecError whose text says what and where; the caller
exits with status 2.
"""
import difflib
import hashlib
import itertools
import json
import math
import os
import re
import subprocess

TOP_KEYS = {"name", "description", "base_config", "base_configs", "programs", "grid", "plots"}
PROGRAM_KEYS = {"program", "shapes", "params"}
PLOT_KEYS = {"x", "y", "title"}
# Figures a plot may show on its y axis (the row fields of simrun.headline,
# and the run's own measurements).
Y_FIELDS = ["total_cycles", "seconds", "cube_utilization", "vector_busy", "ddr_bytes", "ddr_bytes_read",
            "ddr_bytes_written", "format_conversions", "commands", "blocks", "energy_joules", "average_watts",
            "energy_delay_joule_seconds", "area_mm2", "wall_seconds", "max_rss_kib"]


class SpecError(Exception):
    pass


def config_keys(sim):
    """The dotted parameter names davinci-sim knows, from --help-config
    (the one declaration of every parameter)."""
    try:
        text = subprocess.run([sim, "--help-config"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SpecError("cannot ask %s for its configuration keys: %s (build it: scripts/bootstrap.sh)" % (sim, e))
    keys = re.findall(r"^  ([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)\s{2,}", text, re.M)
    if not keys:
        raise SpecError("%s --help-config listed no configuration keys" % sim)
    return keys


def _did_you_mean(word, choices):
    close = difflib.get_close_matches(word, choices, n=1)
    return " (did you mean %s?)" % close[0] if close else ""


def _check_keys(obj, allowed, where):
    for k in obj:
        if k not in allowed:
            raise SpecError("%s: unknown key '%s'%s; expected one of %s" %
                            (where, k, _did_you_mean(k, sorted(allowed)), ", ".join(sorted(allowed))))


def _is_number(x):
    """A JSON number davinci-sim can take: not a boolean, not NaN or infinite
    (Python's reader accepts NaN and Infinity; JSON has neither)."""
    return isinstance(x, int) and not isinstance(x, bool) or isinstance(x, float) and math.isfinite(x)


def _is_value(x):
    """A grid or param value: a finite number, a string or a boolean."""
    return isinstance(x, (str, bool)) or _is_number(x)


def _check_path(path, what):
    if "\0" in path:
        raise SpecError("%s %s: a path cannot hold a NUL character" % (what, json.dumps(path)))


def _read_json(path, what):
    _check_path(path, what)
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except UnicodeDecodeError as e:
        raise SpecError("%s %s is not UTF-8 text: byte %d" % (what, path, e.start))
    except RecursionError:
        raise SpecError("%s %s nests its JSON too deeply" % (what, path))
    except FileNotFoundError:
        raise SpecError("%s %s does not exist" % (what, path))
    except json.JSONDecodeError as e:
        raise SpecError("%s %s is not valid JSON: line %d column %d: %s" % (what, path, e.lineno, e.colno, e.msg))
    except OSError as e:
        raise SpecError("cannot read %s %s: %s" % (what, path, e.strerror))


def _shapes(value, where):
    """A program's shape bindings: a list of {tensor: [dims]} (one point
    each), or one such object."""
    variants = value if isinstance(value, list) else [value]
    if not variants:
        raise SpecError("%s: shapes is an empty list" % where)
    out = []
    for v in variants:
        if not isinstance(v, dict):
            raise SpecError("%s: a shape binding is an object {tensor: [dims]}, got %s" % (where, json.dumps(v)))
        for name, dims in v.items():
            if (not isinstance(dims, list) or not dims or
                    not all(isinstance(d, int) and not isinstance(d, bool) and d > 0 for d in dims)):
                raise SpecError("%s: shape of '%s' must be a list of positive integers, got %s" %
                                (where, name, json.dumps(dims)))
        out.append(v)
    return out


def _params(value, where):
    """A program's --param bindings: a list of {name: value} (one point
    each), or one such object; values are numbers, strings or booleans."""
    variants = value if isinstance(value, list) else [value]
    if not variants:
        raise SpecError("%s: params is an empty list" % where)
    for v in variants:
        if not isinstance(v, dict):
            raise SpecError("%s: a params binding is an object {name: value}, got %s" % (where, json.dumps(v)))
        for name, x in v.items():
            if not _is_value(x):
                raise SpecError("%s: param '%s' must be a finite number, string or boolean, got %s" %
                                (where, name, json.dumps(x)))
    return variants


def param_value_text(x):
    """VALUE of --param NAME=VALUE: the program's spelling of a JSON value."""
    if isinstance(x, bool):
        return "True" if x else "False"
    return x if isinstance(x, str) else json.dumps(x)


def param_options(params):
    """The --param options' texts, NAME=VALUE, in name order."""
    return ["%s=%s" % (n, param_value_text(x)) for n, x in sorted(params.items())]


def params_text(params):
    return " ".join("%s=%s" % (n, param_value_text(x)) for n, x in sorted(params.items()))


def _set_dotted(config, key, value):
    node = config
    parts = key.split(".")
    for p in parts[:-1]:
        node = node.setdefault(p, {})
        if not isinstance(node, dict):
            raise SpecError("grid key %s: the base configuration has a value, not an object, at %s" % (key, p))
    node[parts[-1]] = value


def point_key(program_rel, source, shapes, config, params=None):
    """A point's identity: a hash of what determines its result (the
    program's text, its shapes and params, the whole configuration), stable
    across runs, machines and the order of keys in the sweep file. Without
    params the blob is as before they existed, so older results resume."""
    what = {"program": program_rel, "source_sha256": hashlib.sha256(source.encode()).hexdigest(),
            "shapes": shapes, "config": config}
    if params:
        what["params"] = params
    blob = json.dumps(what, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


def _read_base(file):
    base = _read_json(file, "base configuration")
    if not isinstance(base, dict):
        raise SpecError("base configuration %s is not a JSON object" % file)
    return base


def shapes_text(shapes):
    return " ".join("%s=%s" % (n, ",".join(map(str, d))) for n, d in sorted(shapes.items()))


def load(path, sim):
    """Reads the sweep file at `path`; returns (spec, points). Each point is
    a dict: key, program (as written), program_rel, source, shapes, params, values
    (grid key -> value), config (the whole configuration)."""
    spec = _read_json(path, "sweep file")
    if not isinstance(spec, dict):
        raise SpecError("%s: a sweep file is a JSON object" % path)
    _check_keys(spec, TOP_KEYS, path)
    if "programs" not in spec:
        raise SpecError("%s: missing 'programs'" % path)
    spec.setdefault("name", os.path.splitext(os.path.basename(path))[0])
    if not isinstance(spec["name"], str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", spec["name"]):
        raise SpecError("%s: name must be letters, digits, '_', '.' or '-', got %s" % (path, json.dumps(spec["name"])))

    if not isinstance(spec.get("description", ""), str):
        raise SpecError("%s: description must be a string, got %s" % (path, json.dumps(spec["description"])))
    if "base_config" in spec and "base_configs" in spec:
        raise SpecError("%s: give base_config (one machine) or base_configs (several, by name), not both" % path)
    bases = {"": {}}  # name -> configuration; "" when the sweep has no base_configs
    if "base_config" in spec:
        if not isinstance(spec["base_config"], str) or not spec["base_config"]:
            raise SpecError("%s: base_config must be the path of a configuration file, got %s" %
                            (path, json.dumps(spec["base_config"])))
        bases = {"": _read_base(spec["base_config"])}
    if "base_configs" in spec:
        named = spec["base_configs"]
        if not isinstance(named, dict) or not named:
            raise SpecError("%s: base_configs must be a non-empty object of name -> configuration file" % path)
        bases = {}
        for name, file in named.items():
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", name):
                raise SpecError("%s: base_configs: a name is letters, digits, '_', '.' or '-', got %s" %
                                (path, json.dumps(name)))
            if not isinstance(file, str) or not file:
                raise SpecError("%s: base_configs: %s must be the path of a configuration file, got %s" %
                                (path, name, json.dumps(file)))
            bases[name] = _read_base(file)

    grid = spec.setdefault("grid", {})
    if not isinstance(grid, dict):
        raise SpecError("%s: grid must be an object of config key -> list of values" % path)
    known = config_keys(sim)
    for key, values in grid.items():
        if key not in known:
            raise SpecError("%s: grid: unknown configuration key '%s'%s (davinci-sim --help-config lists them)" %
                            (path, key, _did_you_mean(key, known)))
        if not isinstance(values, list) or not values:
            raise SpecError("%s: grid: %s must be a non-empty list of values" % (path, key))
        for v in values:
            if not _is_value(v):
                raise SpecError("%s: grid: %s: values are finite numbers, strings or booleans, got %s" %
                                (path, key, json.dumps(v)))
        if len(set(json.dumps(v) for v in values)) != len(values):
            raise SpecError("%s: grid: %s lists a value twice" % (path, key))

    programs = spec["programs"]
    if not isinstance(programs, list) or not programs:
        raise SpecError("%s: programs must be a non-empty list" % path)
    points = []
    seen = set()
    for i, entry in enumerate(programs):
        where = "%s: programs[%d]" % (path, i)
        if isinstance(entry, str):
            entry = {"program": entry}
        if not isinstance(entry, dict) or "program" not in entry:
            raise SpecError("%s: a program is a path or an object with 'program' and 'shapes'" % where)
        _check_keys(entry, PROGRAM_KEYS, where)
        program = entry["program"]
        if not isinstance(program, str) or not program:
            raise SpecError("%s: program must be the path of a .pto file, got %s" % (where, json.dumps(program)))
        _check_path(program, where + ": program")
        try:
            with open(program, encoding="utf-8") as f:
                source = f.read()
        except OSError as e:
            raise SpecError("%s: cannot read program %s: %s" % (where, program, e.strerror))
        except UnicodeDecodeError as e:
            raise SpecError("%s: program %s is not UTF-8 text: byte %d" % (where, program, e.start))
        program_rel = os.path.basename(program) if os.path.isabs(program) else os.path.normpath(program)
        if program_rel.startswith(".."):
            program_rel = os.path.basename(program)
        for shapes, params in itertools.product(_shapes(entry.get("shapes", {}), where),
                                                _params(entry.get("params", {}), where)):
            for (base_name, base), combo in itertools.product(bases.items(), itertools.product(*grid.values())):
                values = dict(zip(grid.keys(), combo))
                config = json.loads(json.dumps(base))
                for k, v in values.items():
                    _set_dotted(config, k, v)
                key = point_key(program_rel, source, shapes, config, params)
                if key in seen:
                    raise SpecError("%s: %s %s is listed twice%s" %
                                    (where, program, " ".join(filter(None, [shapes_text(shapes), params_text(params)])),
                                     " (base configs that are the same machine?)" if len(bases) > 1 else ""))
                seen.add(key)
                axes = dict(values)
                if base_name:
                    axes["config"] = base_name
                for tensor, dims in sorted(shapes.items()):
                    for d, n in enumerate(dims):
                        axes["shape:%s.%d" % (tensor, d)] = n
                for name, x in sorted(params.items()):
                    axes["param:" + name] = x
                points.append({"key": key, "program": program, "program_rel": program_rel, "source": source,
                               "shapes": shapes, "params": params, "values": values, "config_name": base_name,
                               "axes": axes, "config": config})

    # Every axis and its values, in the order they first appear: the grid
    # keys, then "config", then the shapes' dimensions and the params.
    axes = {k: list(v) for k, v in grid.items()}
    if "base_configs" in spec:
        axes["config"] = list(bases)
    for point in points:
        for k, v in point["axes"].items():
            seen_values = axes.setdefault(k, [])
            if v not in seen_values:
                seen_values.append(v)
    spec["axes"] = axes

    plots = spec.get("plots")
    if plots is None:
        # The first axis that varies; none: no plots.
        varying = [k for k, v in axes.items() if len(v) > 1]
        plots = [{"x": varying[0], "y": "total_cycles"}, {"x": varying[0], "y": "cube_utilization"}] if varying else []
    if not isinstance(plots, list):
        raise SpecError("%s: plots must be a list" % path)
    for j, p in enumerate(plots):
        where = "%s: plots[%d]" % (path, j)
        if not isinstance(p, dict) or "x" not in p or "y" not in p:
            raise SpecError("%s: a plot is an object with 'x' (a grid key) and 'y' (a figure)" % where)
        _check_keys(p, PLOT_KEYS, where)
        for field in ("x", "y", "title"):
            if field in p and not isinstance(p[field], str):
                raise SpecError("%s: %s must be a string, got %s" % (where, field, json.dumps(p[field])))
        if p["x"] not in axes:
            raise SpecError("%s: x '%s' is not an axis of this sweep%s; axes: %s (grid keys, 'config' with "
                            "base_configs, shape:TENSOR.DIM, param:NAME)" %
                            (where, p["x"], _did_you_mean(p["x"], list(axes)), ", ".join(axes) or "none"))
        if p["y"] not in Y_FIELDS:
            raise SpecError("%s: y '%s' is not a figure%s; figures: %s" %
                            (where, p["y"], _did_you_mean(p["y"], Y_FIELDS), ", ".join(Y_FIELDS)))
    spec["plots"] = plots
    return spec, points
