"""`bluegray bench NAME`: performance figures, each beside a baseline measured in the same run."""

from __future__ import annotations

import bench.benchmarks
from api.cli import discover
from api.commands._errors import CommandError
from api.commands.scenario import one_line

NAME = "bench"
HELP = "Measure performance (rules, store, ...) and print figures with ratios against a same-run baseline."


def benchmark_modules() -> list:
    return discover(bench.benchmarks)


def add_arguments(parser) -> None:
    sub = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True)
    for module in benchmark_modules():
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(bench_run=module.run)


def run(args) -> int:
    from scenarios.loader import ScenarioError

    try:
        return args.bench_run(args)
    except ScenarioError as e:  # bench rules --scenario
        raise CommandError(one_line(e)) from None
