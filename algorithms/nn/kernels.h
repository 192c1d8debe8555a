// Stateless kernel pairs (llm.c's style, issue 30 §1): forward and backward as free functions on
// pointers and sizes, no layer object and no cache of their own - the caller owns every buffer,
// including what a backward needs from its forward (layer norm's mean and 1/std, attention's
// probabilities), so a model unrolled over time keeps one context per step. Conv and pooling are
// in conv.h; these are the kernels the sequence models of chapters 13-15 are built from.
//
// Layout: row-major, one token / sample per row; "the last axis" is the row. Conventions are
// PyTorch's: softmax over dim=-1; torch.nn.LayerNorm(n, eps=1e-5) normalises each row with the
// biased variance; torch.nn.Embedding; torch.nn.Linear y = x W^T + b with W (out x in); scaled
// dot-product attention in the row convention Z = softmax(Q K^T / sqrt(d_k)) V
// (torch.nn.functional.scaled_dot_product_attention; the course notes' Xi = softmax(Q^T K / sqrt(k)) V
// is the column convention, and 002 writes it with Q^T K where the row form has Q K^T).
//
// Backward conventions: input gradients are WRITTEN, parameter gradients ADDED TO (as a layer's
// backward adds into the container's gradient buffer). Every loop runs in a fixed order on one
// thread: the same inputs give the same bits.
//
// Instantiated for float and double (kernels.cpp).
#pragma once

#include <cstdint>

namespace cilab::nn {

// y = softmax(x) over each row of a (rows x n) block (stable: the row maximum subtracted).
template <class T>
void softmax_forward(const T* x, int rows, int n, T* y);
// dx = y .* (dy - sum_j dy_j y_j) per row, from the forward's output y.
template <class T>
void softmax_backward(const T* y, const T* dy, int rows, int n, T* dx);

// Layer norm over each row: y = (x - mean) * rstd * gamma + beta, rstd = 1 / sqrt(var + eps)
// (var biased); gamma and beta have n entries (nullptr: 1 and 0, no affine). Writes mean and rstd
// (rows entries each) for the backward pass.
template <class T>
void layernorm_forward(const T* x, const T* gamma, const T* beta, int rows, int n, T eps, T* y, T* mean, T* rstd);
// dx (written), dgamma and dbeta (added; skipped when nullptr or gamma is nullptr).
template <class T>
void layernorm_backward(const T* x, const T* gamma, const T* mean, const T* rstd, const T* dy, int rows, int n, T* dx,
                        T* dgamma, T* dbeta);

// Embedding lookup: y[r] = table[index[r]] (rows x dim; table vocab x dim). Throws
// std::invalid_argument for an index outside [0, vocab), naming the row and the index.
template <class T>
void embedding_forward(const int32_t* index, int rows, const T* table, int vocab, int dim, T* y);
// dtable[index[r]] += dy[r], rows in order (a repeated index sums its rows).
template <class T>
void embedding_backward(const int32_t* index, int rows, const T* dy, int dim, T* dtable);

// y = x (W .* M)^T + b: x (rows x in), W and the optional 0/1 mask M (out x in; nullptr: none,
// the masked Linear MADE needs), b (out; nullptr: none), y (rows x out).
template <class T>
void linear_forward(const T* x, const T* w, const T* mask, const T* b, int rows, int in, int out, T* y);
// dx = dy (W .* M) (written, when dx != nullptr); dW += (dy^T x) .* M and db += column sums of dy
// (when not nullptr).
template <class T>
void linear_backward(const T* x, const T* w, const T* mask, const T* dy, int rows, int in, int out, T* dx, T* dw,
                     T* db);

// Scaled dot-product attention of one head over t tokens, row convention:
//   S = Q K^T * c (c = 1 / sqrt(d_k) when `scale`, else 1), P = softmax(S) row-wise, Z = P V,
// Q, K (t x d_k), V (t x d_v), P (t x t, written: the backward needs it), Z (t x d_v). `causal`
// masks s_ij for j > i (P_ij = 0 exactly: token i sees tokens 0..i only).
template <class T>
void attention_forward(const T* q, const T* k, const T* v, int t, int d_k, int d_v, bool causal, bool scale, T* p,
                       T* z);
// dQ, dK, dV (written) from dZ and the forward's P: dV = P^T dZ, dP = dZ V^T,
// dS = softmax_backward(P, dP), dQ = c dS K, dK = c dS^T Q.
template <class T>
void attention_backward(const T* q, const T* k, const T* v, const T* p, const T* dz, int t, int d_k, int d_v,
                        bool scale, T* dq, T* dk, T* dv);

}  // namespace cilab::nn
