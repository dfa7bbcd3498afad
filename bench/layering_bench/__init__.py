"""The benchmark behind `bench/run.py`: layering against import-linter and tach.

`bench/run.py` parses the command line and runs the steps in order; bench/README.md describes
what is measured. Each module imports only those listed before it:

- `processes`: one command run as a whole process (exit code, wall time, peak memory from
  `wait4`, output); the progress log.
- `source_edits`, `synthetic`: the edits made to copies of the corpora; the synthetic packages
  of the scaling table.
- `corpora`: the corpora and the contracts of each workload on them.
- `env`: the bench venv and its tools, the corpora's wheels, the machine.
- `projects`: a project to check, each tool's configuration of a workload, the commands.
- `timing`: series of runs, interleaved rounds, the cache directories, medians and ratios.
- `profiles`: layering under cProfile: the cache writes (the guard's allowance), where a run's
  time goes.
- `edits`: workloads d1, d2, e and the scaling table.
- `importlinter_file`: workload f, import-linter's own `.importlinter` read by both tools.
- `init_runs`, `lsp_session`: `layering init` on each corpus; `layering lsp` answering a save,
  over a minimal JSON-RPC client of its own.
- `workloads`: a, b, c and cut, the guard's rounds, the cut check; memory, start-up, probes.
- `guard`: issue 16's guard, decided by a sign test on the paired rounds.
- `tables`, `extra_tables`, `targets`, `report`: RESULTS.md's sections and targets (f, the peak
  memory of every cell, init and lsp in `extra_tables`), the report and the JSON dump of every
  run.
"""
