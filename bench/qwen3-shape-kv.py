"""Export a random-weight ONNX model with the exact shapes of Qwen3-0.6B, with a KV cache.

A variant of ../shared/tools/qwen3_shape_model.py (same seed, same weights) whose graph takes
past_key_values.{i}.key/value [batch, kv heads, past length, head dim] and returns present.{i}.key/value, as the
hub's decoder exports do; attention_mask then covers past + current tokens. Used to measure prompt-prefix reuse.

Weights are random, so scores mean nothing; the FLOPs, memory traffic and graph
are those of the real model, which makes it a faithful CPU/GPU cost yardstick.
Usage: /usr/bin/python3 qwen3_shape_model.py OUTDIR [--head base|lm] [--layers 28 ...]
Writes OUTDIR/onnx/model.onnx (+ external weight files) and OUTDIR/config.json; copy a
Qwen3 tokenizer.json / tokenizer_config.json beside them (see README.md here).
"""
import argparse, json, math, os
import torch
from torch import nn

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--layers", type=int, default=28)
p.add_argument("--hidden", type=int, default=1024)
p.add_argument("--inter", type=int, default=3072)
p.add_argument("--heads", type=int, default=16)
p.add_argument("--kv", type=int, default=8)
p.add_argument("--head-dim", type=int, default=128)
p.add_argument("--vocab", type=int, default=151669)
p.add_argument("--head", choices=["lm", "base"], default="base")
a = p.parse_args()

class RMS(nn.Module):
    def __init__(s, d, eps=1e-6):
        super().__init__(); s.w = nn.Parameter(torch.ones(d)); s.eps = eps
    def forward(s, x):
        v = x.pow(2).mean(-1, keepdim=True)
        return x * torch.rsqrt(v + s.eps) * s.w

def rope(x, cos, sin):
    h = x.shape[-1] // 2
    x1, x2 = x[..., :h], x[..., h:]
    return x * cos + torch.cat([-x2, x1], -1) * sin

class Layer(nn.Module):
    def __init__(s):
        super().__init__()
        H, D = a.hidden, a.head_dim
        s.q = nn.Linear(H, a.heads * D, bias=False); s.k = nn.Linear(H, a.kv * D, bias=False)
        s.v = nn.Linear(H, a.kv * D, bias=False); s.o = nn.Linear(a.heads * D, H, bias=False)
        s.qn, s.kn = RMS(D), RMS(D); s.n1, s.n2 = RMS(H), RMS(H)
        s.g = nn.Linear(H, a.inter, bias=False); s.u = nn.Linear(H, a.inter, bias=False); s.d = nn.Linear(a.inter, H, bias=False)
    def forward(s, x, cos, sin, mask, pk, pv):
        B, T, _ = x.shape; D = a.head_dim
        h = s.n1(x)
        q = s.qn(s.q(h).view(B, T, a.heads, D)).transpose(1, 2)
        k = s.kn(s.k(h).view(B, T, a.kv, D)).transpose(1, 2)
        v = s.v(h).view(B, T, a.kv, D).transpose(1, 2)
        q, k = rope(q, cos, sin), rope(k, cos, sin)
        k = torch.cat([pk, k], 2); v = torch.cat([pv, v], 2)
        present = (k, v)
        S = k.shape[2]
        rep = a.heads // a.kv
        k = k[:, :, None].expand(B, a.kv, rep, S, D).reshape(B, a.heads, S, D)
        v = v[:, :, None].expand(B, a.kv, rep, S, D).reshape(B, a.heads, S, D)
        att = (q @ k.transpose(-1, -2)) / math.sqrt(D) + mask
        o = (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, a.heads * D)
        x = x + s.o(o)
        h = s.n2(x)
        return x + s.d(nn.functional.silu(s.g(h)) * s.u(h)), present

class Model(nn.Module):
    def __init__(s):
        super().__init__()
        s.emb = nn.Embedding(a.vocab, a.hidden)
        s.layers = nn.ModuleList([Layer() for _ in range(a.layers)])
        s.norm = RMS(a.hidden)
        inv = 1.0 / (1e6 ** (torch.arange(0, a.head_dim, 2).float() / a.head_dim))
        s.register_buffer("inv", inv)
    def forward(s, input_ids, attention_mask, position_ids, *past):
        x = s.emb(input_ids)
        f = position_ids.float()[..., None] * s.inv  # B,T,D/2
        e = torch.cat([f, f], -1)
        cos, sin = e.cos()[:, None], e.sin()[:, None]
        T = input_ids.shape[1]
        S = attention_mask.shape[1]
        # Query i sits at column (S - T) + i of the keys: it sees keys j <= that.
        qi = torch.arange(T)[:, None] + (S - T)
        kj = torch.arange(S)[None, :]
        causal = (kj <= qi).float()
        m = causal[None, None] * attention_mask[:, None, None, :].float()
        mask = (1.0 - m) * -1e9
        presents = []
        for i, l in enumerate(s.layers):
            x, pr = l(x, cos, sin, mask, past[2 * i], past[2 * i + 1])
            presents.extend(pr)
        x = s.norm(x)
        if a.head == "lm":
            return (x @ s.emb.weight.t(), *presents)
        return (x, *presents)

torch.manual_seed(0)
m = Model().eval()
for prm in m.parameters():
    with torch.no_grad():
        if prm.dim() > 1: prm.normal_(0, 0.02)
os.makedirs(os.path.join(a.out, "onnx"), exist_ok=True)
ids = torch.ones(2, 8, dtype=torch.long); am = torch.ones(2, 11, dtype=torch.long); pos = torch.arange(3, 11)[None].repeat(2, 1)
past = [torch.zeros(2, a.kv, 3, a.head_dim) for _ in range(2 * a.layers)]
name = "logits" if a.head == "lm" else "last_hidden_state"
pnames = [f"past_key_values.{i}.{w}" for i in range(a.layers) for w in ("key", "value")]
onames = [f"present.{i}.{w}" for i in range(a.layers) for w in ("key", "value")]
dyn = {"input_ids": {0: "b", 1: "t"}, "attention_mask": {0: "b", 1: "s"}, "position_ids": {0: "b", 1: "t"}, name: {0: "b", 1: "t"}}
dyn.update({n: {0: "b", 2: "p"} for n in pnames}); dyn.update({n: {0: "b", 2: "s"} for n in onames})
torch.onnx.export(m, (ids, am, pos, *past), os.path.join(a.out, "onnx", "model.onnx"),
    input_names=["input_ids", "attention_mask", "position_ids", *pnames], output_names=[name, *onames],
    dynamic_axes=dyn, opset_version=14)
# One weights file, named as transformers.js expects (onnx/model.onnx_data), when the model is large.
import glob, onnx
mp = os.path.join(a.out, "onnx", "model.onnx")
big = sum(x.numel() for x in m.parameters()) * 4 > 1_800_000_000
if big:
    proto = onnx.load(mp)
    for f in glob.glob(os.path.join(a.out, "onnx", "*")):
        os.remove(f)
    onnx.save_model(proto, mp, save_as_external_data=True, all_tensors_to_one_file=True, location="model.onnx_data")
cfg = {"model_type": "qwen3", "architectures": ["Qwen3ForCausalLM" if a.head == "lm" else "Qwen3Model"],
       "hidden_size": a.hidden, "intermediate_size": a.inter, "num_hidden_layers": a.layers,
       "num_attention_heads": a.heads, "num_key_value_heads": a.kv, "head_dim": a.head_dim,
       "vocab_size": a.vocab, "max_position_embeddings": 32768, "rms_norm_eps": 1e-6, "rope_theta": 1e6,
       "bos_token_id": 151643, "eos_token_id": 151645, "tie_word_embeddings": True,
       "transformers.js_config": {"dtype": "fp32", "use_external_data_format": big}}
json.dump(cfg, open(os.path.join(a.out, "config.json"), "w"), indent=2)
n = sum(x.numel() for x in m.parameters())
print(json.dumps({"params": n, "out": a.out, "output": name}))
