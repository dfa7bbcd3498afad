"""Strongly connected components of a directed graph: one implementation for every caller.

Tarjan's algorithm, iterative (a chain of imports can be thousands of modules deep, past
Python's recursion limit), visiting successors in the order given, so the components come out
the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator


def strongly_connected(
    roots: Iterable[str], successors: Callable[[str], Iterable[str]]
) -> Iterator[list[str]]:
    """The components reachable from `roots`, each after every component it reaches (so a
    caller can fold what a component reaches from what its successors' components do); the
    members of a component in the order they leave the stack."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    for root in roots:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(successors(root)))]
        while work:
            node, onward = work[-1]
            advanced = False
            for successor in onward:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(successors(successor))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                yield component
