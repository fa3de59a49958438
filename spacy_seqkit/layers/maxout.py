"""Maxout over groups of consecutive columns, as the window encoder uses it.

`maxout(Z, pieces)` takes the max of each unit's `pieces` consecutive columns of Z
(n, width × pieces), the layout of `Z.view(n, width, pieces).amax(-1)`, and gives the
same values and the same gradients, bit for bit: the gradient of a unit goes to the piece
that holds its max, split evenly between pieces that tie for it (`amax`'s rule).

It is faster than `amax` on the CPU. The forward pass is `max_pool1d` over the pieces
(one vectorised pass, where `amax` reduces a dimension of 3 elements at a time; about
4× on an AMD EPYC core). The backward pass of `amax` builds a boolean mask, counts it,
casts it to floats and multiplies it by the expanded gradient: four passes over the
(n, width, pieces) tensor, about half of the encoder's backward time outside its matrix
products. On the CPU it is one pass of a compiled loop instead (numba, compiled at the
first backward pass and cached on disk), with `amax`'s exact arithmetic: `(g / ties) ×
(1 or 0)`, so a gradient is the same float, its sign of zero included. Elsewhere (GPU,
numba missing, other dtypes) the backward pass is `amax`'s formula in torch ops.
"""

from typing import Any, Optional, Tuple

import numpy
import torch
import torch.nn.functional as F


def maxout(Z: torch.Tensor, pieces: int) -> torch.Tensor:
    """(n, width × pieces) -> (n, width): the max of each unit's consecutive pieces."""
    if pieces == 1:
        return Z
    if torch.is_grad_enabled() and Z.requires_grad:
        return MaxoutFunction.apply(Z, pieces)
    return max_pieces(Z, pieces)


def max_pieces(Z: torch.Tensor, pieces: int) -> torch.Tensor:
    """The forward pass: max_pool1d over windows of `pieces` columns."""
    return F.max_pool1d(Z.unsqueeze(1), pieces, pieces).squeeze(1)


class MaxoutFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, Z: torch.Tensor, pieces: int) -> torch.Tensor:
        M = max_pieces(Z, pieces)
        ctx.save_for_backward(Z, M)
        ctx.pieces = pieces
        return M

    @staticmethod
    def backward(ctx: Any, dM: torch.Tensor) -> Tuple[torch.Tensor, None]:
        Z, M = ctx.saved_tensors
        return maxout_backward(Z, M, dM, ctx.pieces), None


def maxout_backward(Z: torch.Tensor, M: torch.Tensor, dM: torch.Tensor, pieces: int) -> torch.Tensor:
    """dZ from dM: `amax`'s rule (see the module's docstring)."""
    kernel = compiled_backward() if _fits_kernel(Z, M, dM) else None
    if kernel is not None:
        dZ = torch.empty_like(Z)
        kernel(Z.numpy(), M.numpy(), dM.contiguous().numpy(), pieces, dZ.numpy())
        return dZ
    Zv = Z.view(Z.shape[0], -1, pieces)
    mask = Zv == M.unsqueeze(-1)
    return ((dM.unsqueeze(-1) / mask.sum(-1, keepdim=True)) * mask).view_as(Z)


def _fits_kernel(Z: torch.Tensor, M: torch.Tensor, dM: torch.Tensor) -> bool:
    return (
        Z.device.type == "cpu"
        and Z.dtype == M.dtype == dM.dtype == torch.float32
        and Z.is_contiguous()
        and M.is_contiguous()
    )


def _backward_loop(Z, M, dM, pieces, dZ):  # pragma: no cover (compiled by numba)
    """dZ[r, u·p + k] = (dM[r, u] / ties) × (1 if Z[r, u·p + k] == M[r, u] else 0), where
    ties counts the pieces equal to the max (0 where the max is NaN: the gradient is NaN,
    as with amax)."""
    n, width = M.shape
    one, zero = numpy.float32(1.0), numpy.float32(0.0)
    for r in range(n):
        for u in range(width):
            first = u * pieces
            m = M[r, u]
            ties = 0
            for k in range(pieces):
                if Z[r, first + k] == m:
                    ties += 1
            g = dM[r, u]
            if ties != 1:
                g = g / numpy.float32(ties)
            for k in range(pieces):
                dZ[r, first + k] = g * (one if Z[r, first + k] == m else zero)


def compiled_backward() -> Optional[Any]:
    """_backward_loop compiled by numba (cached on disk), or None without numba."""
    global _COMPILED
    if _COMPILED is None:
        try:
            import numba
        except ImportError:  # pragma: no cover (numba is a dependency)
            _COMPILED = False
            return None
        # No fastmath, and a division by zero is IEEE's (inf, NaN), as in torch.
        _COMPILED = numba.njit(nogil=True, cache=True, error_model="numpy")(_backward_loop)
    return _COMPILED or None


_COMPILED: Any = None
