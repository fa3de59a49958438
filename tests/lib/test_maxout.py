"""layers/maxout.py: the window encoder's maxout gives amax's values and gradients, bit for bit."""

import pytest
import torch

from spacy_seqkit.layers import maxout as maxout_module
from spacy_seqkit.layers.maxout import maxout


def amax_reference(Z, pieces):
    return Z.view(Z.shape[0], -1, pieces).amax(-1)


def inputs(case, pieces, n=257, width=7, seed=0):
    gen = torch.Generator().manual_seed(seed)
    Z = torch.randn(n, width * pieces, generator=gen)
    if case == "ties":
        view = Z.view(n, width, pieces)
        view[::3, :, pieces - 1] = view[::3, :, 0]  # two pieces tie for the max, or not
        view[::5] = 0.25  # every piece ties
    if case == "nan":
        Z[4, 3] = float("nan")
    if case == "zeros":
        Z.view(n, width, pieces)[:, :, 0] = -0.0
        Z.view(n, width, pieces)[:, :, 1:] = 0.0
    dM = torch.randn(n, width, generator=gen)
    dM[::4] = -dM[::4]
    return Z, dM


def same_bits(a, b):
    return torch.equal(a.view(torch.int32), b.view(torch.int32))


@pytest.mark.parametrize("pieces", [2, 3, 4])
@pytest.mark.parametrize("case", ["random", "ties", "nan", "zeros"])
@pytest.mark.parametrize("compiled", [True, False])
def test_maxout_equals_amax_bit_for_bit(pieces, case, compiled, monkeypatch):
    if not compiled:
        monkeypatch.setattr(maxout_module, "compiled_backward", lambda: None)
    Z, dM = inputs(case, pieces)
    ours, ref = Z.clone().requires_grad_(), Z.clone().requires_grad_()
    M, M_ref = maxout(ours, pieces), amax_reference(ref, pieces)
    assert torch.equal(M.isnan(), M_ref.isnan())
    assert torch.equal(M.nan_to_num(), M_ref.nan_to_num())
    M.backward(dM)
    M_ref.backward(dM)
    assert torch.equal(ours.grad.isnan(), ref.grad.isnan())
    # The same floats, signs of zero included.
    assert same_bits(ours.grad.nan_to_num(), ref.grad.nan_to_num())


def test_maxout_one_piece_is_the_input():
    Z = torch.randn(5, 4)
    assert maxout(Z, 1) is Z


def test_maxout_without_gradient_is_the_forward_pass():
    Z, _ = inputs("ties", 3)
    with torch.no_grad():
        assert torch.equal(maxout(Z.requires_grad_(), 3), amax_reference(Z, 3))
