"""Worked solutions of arithmetic expressions, one reduction per step: cold-start SFT targets."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable

_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def _number(value: float) -> ast.expr:
    if float(value).is_integer():
        value = int(value)
    node: ast.expr = ast.Constant(abs(value))
    return ast.UnaryOp(ast.USub(), node) if value < 0 else node


def _constant(node: ast.expr) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        return None if inner is None else -inner
    return None


def _reduce_once(node: ast.expr) -> tuple[ast.expr, bool]:
    """Evaluate the leftmost innermost operation whose operands are both numbers."""
    if isinstance(node, ast.BinOp):
        left, done = _reduce_once(node.left)
        if done:
            return ast.BinOp(left, node.op, node.right), True
        right, done = _reduce_once(node.right)
        if done:
            return ast.BinOp(node.left, node.op, right), True
        a, b = _constant(node.left), _constant(node.right)
        if a is not None and b is not None and type(node.op) in _BINARY:
            return _number(_BINARY[type(node.op)](a, b)), True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        if inner is None:
            operand, done = _reduce_once(node.operand)
            value = _constant(operand)
            # -(87 + -59) -> -28 in one step, not via "--28".
            return (ast.UnaryOp(ast.USub(), operand) if value is None else _number(-value)), done
        if not isinstance(node.operand, ast.Constant):  # -(-3) -> 3
            return _number(-inner), True
    return node, False


def reduction_steps(expression: str) -> list[str]:
    """The expression, then each intermediate form, down to a number (e.g. `5 - 3 - 6`, `2 - 6`,
    `-4`). Empty when the expression is not plain arithmetic."""
    try:
        node = ast.parse(expression.replace("^", "**"), mode="eval").body
    except SyntaxError:
        return []
    steps = [ast.unparse(node)]
    for _ in range(64):
        node, changed = _reduce_once(node)
        if not changed:
            break
        steps.append(ast.unparse(node))
    return steps if _constant(node) is not None else []


def worked_solution(expression: str | None, answer: str) -> str:
    """A think-then-answer completion: the reductions inside <think>, the answer boxed."""
    steps = reduction_steps(expression) if expression else []
    thought = " = ".join(steps) if len(steps) > 1 else f"The answer is {answer}."
    return f"<think>{thought}</think>\n\\boxed{{{answer}}}"
