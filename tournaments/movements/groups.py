"""Small finite groups and fields used to lay out line movements.

Tables, the players of one line and the deal sets are all indexed by the elements of a finite
additive group G (encoded as the integers 0..order-1). Player ``i`` of line ``a`` sits in round
``r`` at table ``i + x[r][a]``; the *rows* ``x[r]`` are chosen so that for every two lines the
differences ``x[r][a] - x[r][b]`` are distinct over the rounds (two entrants then meet, and an
entrant plays a deal set, at most once).

- ``cyclic_group(n)``: Z_n.
- ``galois_field(q)``: GF(q) for a prime power q (its additive group plus a multiplication), so
  that rows ``r * c`` with distinct multipliers ``c`` give a complete movement of q rounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class FiniteGroup:
    """An additive group on 0..order-1 given by tables; ``mul`` is set when it is a field."""

    order: int
    add_table: tuple[tuple[int, ...], ...] = field(repr=False)
    neg_table: tuple[int, ...] = field(repr=False)
    mul_table: tuple[tuple[int, ...], ...] | None = field(default=None, repr=False)

    def add(self, a: int, b: int) -> int:
        return self.add_table[a][b]

    def sub(self, a: int, b: int) -> int:
        return self.add_table[a][self.neg_table[b]]

    def mul(self, a: int, b: int) -> int:
        if self.mul_table is None:
            raise ValueError("this group is not a field")
        return self.mul_table[a][b]


def cyclic_group(n: int) -> FiniteGroup:
    add = tuple(tuple((a + b) % n for b in range(n)) for a in range(n))
    neg = tuple((-a) % n for a in range(n))
    mul = tuple(tuple((a * b) % n for b in range(n)) for a in range(n))
    is_prime = n >= 2 and all(n % d for d in range(2, int(n**0.5) + 1))
    return FiniteGroup(n, add, neg, mul if is_prime else None)


def prime_power(n: int) -> tuple[int, int] | None:
    """(p, k) with p**k == n and p prime, or None."""
    if n < 2:
        return None
    p = next(d for d in range(2, n + 1) if n % d == 0)
    k, rest = 0, n
    while rest % p == 0:
        rest //= p
        k += 1
    return (p, k) if rest == 1 else None


def _digits(value: int, p: int, k: int) -> list[int]:
    out = []
    for _ in range(k):
        out.append(value % p)
        value //= p
    return out


def _number(digits: list[int], p: int) -> int:
    return sum(d * p**i for i, d in enumerate(digits))


def _poly_mul_mod(a: list[int], b: list[int], modulus: list[int], p: int) -> list[int]:
    """Product of two polynomials (coefficient lists, low degree first) modulo a monic one."""
    k = len(modulus) - 1
    prod = [0] * (2 * k)
    for i, ai in enumerate(a):
        if ai:
            for j, bj in enumerate(b):
                prod[i + j] = (prod[i + j] + ai * bj) % p
    for deg in range(len(prod) - 1, k - 1, -1):
        coef = prod[deg]
        if coef:
            for i in range(k + 1):
                prod[deg - k + i] = (prod[deg - k + i] - coef * modulus[i]) % p
    return prod[:k]


def galois_field(q: int) -> FiniteGroup:
    """GF(q); the modulus is the first monic polynomial (in a fixed order) giving a field."""
    pk = prime_power(q)
    if pk is None:
        raise ValueError(f"{q} is not a prime power")
    p, k = pk
    if k == 1:
        return cyclic_group(p)
    elements = [_digits(v, p, k) for v in range(q)]
    add = tuple(
        tuple(_number([(x + y) % p for x, y in zip(a, b, strict=True)], p) for b in elements)
        for a in elements
    )
    neg = tuple(_number([(-x) % p for x in a], p) for a in elements)
    for low in range(p**k):
        modulus = [*_digits(low, p, k), 1]
        mul = tuple(
            tuple(_number(_poly_mul_mod(a, b, modulus, p), p) for b in elements) for a in elements
        )
        # A field has no zero divisors.
        if all(mul[a][b] != 0 for a in range(1, q) for b in range(1, q)):
            return FiniteGroup(q, add, neg, mul)
    raise ValueError(f"no irreducible polynomial found for GF({q})")  # pragma: no cover
