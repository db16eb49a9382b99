//! A multinomial logistic regression over sentence vectors: the classifier a route learns from its
//! reflexes' examples. One weight row and one bias per class, fitted by minimizing the mean cross-entropy
//! of the examples plus an L2 penalty on the weights (not the biases), by full-batch gradient descent
//! with Nesterov momentum from zero weights for a fixed number of steps.
//!
//! Each step is two matrix products, computed by the `gemm` crate (candle's own): every example's logits,
//! `X·Wᵀ`, and the gradient, `Eᵀ·X`, where `X` holds the examples (each with a bias input of one) and `E`
//! their errors. A thousand classes over eleven thousand examples fit in seconds instead of many minutes.
//!
//! Deterministic on one machine: no random start, no shuffling, and the products sum each entry in an
//! order set by the problem's shape and the processor (its vector width and caches), not by the number of
//! threads, so the same examples give the same weights, bit for bit, whatever the threads. Another
//! processor may round the last bits differently; the fit is the same up to that rounding.

use gemm::{Parallelism, gemm};

/// How a head is fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fitting {
    /// The L2 penalty on the weights, per example (the loss is a mean).
    pub l2: f32,
    /// How many gradient steps.
    pub steps: usize,
}

impl Default for Fitting {
    fn default() -> Self {
        Fitting { l2: 1e-3, steps: 120 }
    }
}

impl Fitting {
    /// Roughly how much work fitting `classes` classes to `examples` examples of `dim` numbers is, in
    /// texts a small sentence encoder reads in the same time: what a progress bar counts for it, beside
    /// the texts. Reading one text with all-MiniLM-L6-v2 took as long as about this many of the fit's
    /// multiply-adds, both timed in one `evoke trust` of 1,000 reflexes on two shared cores (76 texts a
    /// second; 2.5·10¹² multiply-adds in 117 s). Both are vector arithmetic, so the ratio travels better
    /// than either speed.
    pub fn cost(&self, examples: usize, classes: usize, dim: usize) -> usize {
        const MULTIPLY_ADDS_A_TEXT: usize = 300_000_000;
        let work = 2 * self.steps * examples * classes * (dim + 1);
        work.div_ceil(MULTIPLY_ADDS_A_TEXT)
    }
}

/// A fitted head: per class, its weights followed by its bias.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    /// Each class's weights, then its bias.
    pub rows: Vec<Vec<f32>>,
}

impl Head {
    /// Fits a head of `classes` classes to the vectors `xs` (all of one length) labelled `labels`.
    /// A class without an example keeps zero weights and a bias the fit pushes down.
    pub fn fit(xs: &[Vec<f32>], labels: &[usize], classes: usize, fitting: Fitting) -> Head {
        Head::fit_counting(xs, labels, classes, fitting, &mut |_| {})
    }
    /// [`Head::fit`], telling `done` how many steps are taken after each step.
    pub fn fit_counting(
        xs: &[Vec<f32>],
        labels: &[usize],
        classes: usize,
        fitting: Fitting,
        done: &mut dyn FnMut(usize),
    ) -> Head {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS);
        fit_on(xs, labels, classes, fitting, threads, done)
    }
    /// Each class's logit for a vector, in class order.
    pub fn logits(&self, x: &[f32]) -> Vec<f32> {
        logits(&self.rows, x)
    }
}

/// The most threads a fit shares its work among.
const MAX_THREADS: usize = 8;
/// How many examples' logits are held at once: the memory a step needs is this many rows of one value
/// per class, whatever the number of examples.
const BLOCK: usize = 4_096;

/// `dst = a·b` (or `dst += a·b` when `add`), for an `m`×`k` matrix `a` and a `k`×`n` matrix `b`, each
/// given as a slice with its row and column strides; `dst` is `m`×`n`, row after row.
fn product(
    dst: &mut [f32],
    add: bool,
    (m, n, k): (usize, usize, usize),
    (a, a_rows, a_cols): (&[f32], usize, usize),
    (b, b_rows, b_cols): (&[f32], usize, usize),
    threads: usize,
) {
    // Each stride walks inside its slice: the last entry of every operand is in bounds.
    let last = |rows: usize, cols: usize, rs: usize, cs: usize| (rows - 1) * rs + (cols - 1) * cs;
    assert!(m > 0 && n > 0 && k > 0 && dst.len() >= m * n);
    assert!(a.len() > last(m, k, a_rows, a_cols) && b.len() > last(k, n, b_rows, b_cols));
    let parallelism = if threads > 1 { Parallelism::Rayon(threads) } else { Parallelism::None };
    // SAFETY: the asserts above keep every entry gemm reads or writes inside its slice, and `dst` is
    // borrowed mutably, so it overlaps neither operand.
    unsafe {
        gemm(
            m,
            n,
            k,
            dst.as_mut_ptr(),
            1,
            n as isize,
            add,
            a.as_ptr(),
            a_cols as isize,
            a_rows as isize,
            b.as_ptr(),
            b_cols as isize,
            b_rows as isize,
            1.0,
            1.0,
            false,
            false,
            false,
            parallelism,
        );
    }
}

/// [`Head::fit_counting`] on `threads` threads.
fn fit_on(
    xs: &[Vec<f32>],
    labels: &[usize],
    classes: usize,
    fitting: Fitting,
    threads: usize,
    done: &mut dyn FnMut(usize),
) -> Head {
    let dim = xs.first().map_or(0, Vec::len);
    let n = xs.len().min(labels.len());
    if n == 0 || classes == 0 {
        return Head { rows: vec![vec![0.0f32; dim + 1]; classes] };
    }
    let width = dim + 1;
    // The examples row after row, each followed by the bias's input of one.
    let mut x = Vec::with_capacity(n * width);
    for v in &xs[..n] {
        x.extend_from_slice(&v[..dim]);
        x.push(1.0);
    }
    // Unit vectors with a bias input of one: the loss's curvature is at most one plus the penalty.
    let rate = 1.0 / (1.0 + fitting.l2);
    let mut w = vec![0.0f32; classes * width];
    let mut previous = w.clone();
    let mut look = w.clone();
    let mut grad = w.clone();
    let mut errors = vec![0.0f32; BLOCK.min(n) * classes];
    let scale = 1.0 / n as f32;
    // Threads pay only where there is work enough to share.
    let threads = if classes * dim < 4_096 { 1 } else { threads.max(1) };
    for step in 0..fitting.steps {
        // The point the momentum looks ahead to.
        let momentum = step as f32 / (step as f32 + 3.0);
        for ((l, w), p) in look.iter_mut().zip(&w).zip(&previous) {
            *l = w + momentum * (w - p);
        }
        for from in (0..n).step_by(BLOCK) {
            let to = (from + BLOCK).min(n);
            let rows = to - from;
            let block = &mut errors[..rows * classes];
            let examples = &x[from * width..to * width];
            // Every example's logit for every class: its row of X times each class's row of W.
            product(block, false, (rows, classes, width), (examples, width, 1), (&look, 1, width), threads);
            // Each example's error per class: its probability less one for its own class, per example.
            shared(block, classes, threads, |first, part| {
                for (r, row) in part.chunks_mut(classes).enumerate() {
                    softmax_in_place(row);
                    row[labels[from + first + r]] -= 1.0;
                    row.iter_mut().for_each(|e| *e *= scale);
                }
            });
            // Each class's gradient: its column of errors times the examples, added block after block.
            product(&mut grad, from > 0, (classes, width, rows), (block, 1, classes), (examples, width, 1), threads);
        }
        for (j, (((w, p), l), g)) in w.iter_mut().zip(previous.iter_mut()).zip(&look).zip(&grad).enumerate() {
            let penalty = if j % width < dim { fitting.l2 * l } else { 0.0 };
            *p = *w;
            *w = l - rate * (g + penalty);
        }
        done(step + 1);
    }
    Head { rows: w.chunks(width).map(<[f32]>::to_vec).collect() }
}

/// Runs `work` on `items` cut into at most `threads` runs of whole records of `width` items each, every
/// run on a thread of its own (the first on this one); `work` is given the index of its first record.
fn shared<T: Send>(items: &mut [T], width: usize, threads: usize, work: impl Fn(usize, &mut [T]) + Sync) {
    let records = items.len() / width.max(1);
    let per = records.div_ceil(threads.max(1)).max(1);
    if threads <= 1 || records <= per {
        work(0, items);
        return;
    }
    std::thread::scope(|scope| {
        let mut runs = items.chunks_mut(per * width).enumerate();
        let first = runs.next();
        for (i, run) in runs {
            let work = &work;
            scope.spawn(move || work(i * per, run));
        }
        if let Some((_, run)) = first {
            work(0, run);
        }
    });
}

/// Each class's logit for a vector, from a head's rows (each class's weights, then its bias).
pub fn logits(rows: &[Vec<f32>], x: &[f32]) -> Vec<f32> {
    rows.iter()
        .map(|r| match r.split_last() {
            Some((bias, w)) => crate::dot(w, x) + bias,
            None => 0.0,
        })
        .collect()
}

fn softmax_in_place(z: &mut [f32]) {
    let max = z.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut total = 0.0f32;
    for v in z.iter_mut() {
        *v = (*v - max).exp();
        total += *v;
    }
    for v in z.iter_mut() {
        *v /= total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: Vec<f32>) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    #[test]
    fn a_head_separates_what_the_nearest_example_confuses() {
        // Class 0's examples spread along one axis; class 1 sits just off it. A query near class 0's
        // far example is class 0, though class 1 is close.
        let xs = vec![
            unit(vec![1.0, 0.0, 0.0]),
            unit(vec![1.0, 0.3, 0.0]),
            unit(vec![1.0, -0.3, 0.0]),
            unit(vec![0.0, 0.0, 1.0]),
            unit(vec![0.2, 0.0, 1.0]),
        ];
        let labels = vec![0, 0, 0, 1, 1];
        let head = Head::fit(&xs, &labels, 2, Fitting { l2: 1e-3, steps: 200 });
        for (x, &y) in xs.iter().zip(&labels) {
            let z = head.logits(x);
            let best = if z[0] > z[1] { 0 } else { 1 };
            assert_eq!(best, y, "{x:?} read as {z:?}");
        }
        let z = head.logits(&unit(vec![0.7, 0.0, 0.6]));
        assert!(z[0] > z[1], "{z:?}");
    }

    /// The fit as the definition reads, one example at a time through every class, with plain loops:
    /// what the fit by matrix products must give, up to float rounding.
    fn one_example_at_a_time(xs: &[Vec<f32>], labels: &[usize], classes: usize, fitting: Fitting) -> Head {
        let dim = xs[0].len();
        let n = xs.len();
        let zero = || vec![vec![0.0f32; dim + 1]; classes];
        let rate = 1.0 / (1.0 + fitting.l2);
        let (mut w, mut previous, mut look, mut grad) = (zero(), zero(), zero(), zero());
        let mut p = vec![0.0f32; classes];
        let scale = 1.0 / n as f32;
        for step in 0..fitting.steps {
            let momentum = step as f32 / (step as f32 + 3.0);
            for k in 0..classes {
                for j in 0..=dim {
                    look[k][j] = w[k][j] + momentum * (w[k][j] - previous[k][j]);
                }
            }
            for g in grad.iter_mut() {
                g.iter_mut().for_each(|x| *x = 0.0);
            }
            for (x, &y) in xs.iter().zip(labels) {
                for k in 0..classes {
                    p[k] = crate::dot(&look[k][..dim], x) + look[k][dim];
                }
                softmax_in_place(&mut p);
                for k in 0..classes {
                    let e = (p[k] - if k == y { 1.0 } else { 0.0 }) * scale;
                    for j in 0..dim {
                        grad[k][j] += e * x[j];
                    }
                    grad[k][dim] += e;
                }
            }
            for k in 0..classes {
                for j in 0..=dim {
                    let penalty = if j < dim { fitting.l2 * look[k][j] } else { 0.0 };
                    previous[k][j] = w[k][j];
                    w[k][j] = look[k][j] - rate * (grad[k][j] + penalty);
                }
            }
        }
        Head { rows: w }
    }

    /// A problem of `n` examples of `dim` numbers in `classes` classes, each example's numbers spread by
    /// a rule, so that classes overlap and the fit has work to do.
    fn problem(n: usize, dim: usize, classes: usize) -> (Vec<Vec<f32>>, Vec<usize>) {
        let xs = (0..n).map(|i| unit((0..dim).map(|j| (((i * 31 + j * 17) % 23) as f32 - 11.0) * 0.37).collect()));
        (xs.collect(), (0..n).map(|i| (i * 13) % classes).collect())
    }

    /// Asserts every weight of `got` is `want`'s within `tolerance` times `want`'s largest weight.
    fn close(got: &Head, want: &Head, tolerance: f32) {
        let largest = want.rows.iter().flatten().fold(0.0f32, |m, x| m.max(x.abs()));
        assert!(largest > 0.01, "the fit moved the weights");
        assert_eq!(got.rows.len(), want.rows.len());
        for (k, (g, w)) in got.rows.iter().zip(&want.rows).enumerate() {
            assert_eq!(g.len(), w.len());
            for (j, (a, b)) in g.iter().zip(w).enumerate() {
                assert!((a - b).abs() <= tolerance * largest, "class {k}, weight {j}: {a} against {b} of {largest}");
            }
        }
    }

    #[test]
    fn the_fit_by_products_is_the_plain_definition_up_to_rounding() {
        // Enough classes and examples that the work is shared among threads, and a last block of
        // examples shorter than the rest.
        let (xs, labels) = problem(BLOCK + 37, 48, 97);
        let fitting = Fitting { l2: 1e-3, steps: 30 };
        let plain = one_example_at_a_time(&xs, &labels, 97, fitting);
        for threads in [1, 2] {
            close(&fit_on(&xs, &labels, 97, fitting, threads, &mut |_| {}), &plain, 1e-4);
        }
        // Many steps, where the momentum could carry a rounding along.
        let (xs, labels) = problem(300, 19, 12);
        let fitting = Fitting { l2: 1e-3, steps: 120 };
        close(&Head::fit(&xs, &labels, 12, fitting), &one_example_at_a_time(&xs, &labels, 12, fitting), 1e-4);
    }

    #[test]
    fn a_different_fit_is_not_close() {
        // The tolerance above tells fits apart: another penalty moves the weights past it.
        let (xs, labels) = problem(300, 19, 12);
        let fitting = Fitting { l2: 1e-3, steps: 120 };
        let other = Fitting { l2: 2e-3, ..fitting };
        let plain = one_example_at_a_time(&xs, &labels, 12, fitting);
        let moved = std::panic::catch_unwind(|| close(&Head::fit(&xs, &labels, 12, other), &plain, 1e-4));
        assert!(moved.is_err(), "a fit with twice the penalty read as the same");
    }

    #[test]
    fn any_number_of_threads_gives_the_bits_of_one() {
        let classes = 97;
        let (xs, labels) = problem(BLOCK + 37, 48, classes);
        let fitting = Fitting { l2: 1e-3, steps: 7 };
        let bits = |h: &Head| h.rows.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        let one = fit_on(&xs, &labels, classes, fitting, 1, &mut |_| {});
        for threads in [2, 3, 8] {
            assert_eq!(
                bits(&fit_on(&xs, &labels, classes, fitting, threads, &mut |_| {})),
                bits(&one),
                "{threads} threads"
            );
        }
        assert!(one.rows.iter().flatten().any(|x| *x != 0.0), "the fit moved the weights");
    }

    #[test]
    fn a_fit_counts_each_step_as_it_takes_it() {
        let (xs, labels) = problem(60, 19, 4);
        let fitting = Fitting { l2: 1e-3, steps: 9 };
        let mut counted = Vec::new();
        let head = Head::fit_counting(&xs, &labels, 4, fitting, &mut |n| counted.push(n));
        assert_eq!(counted, (1..=9).collect::<Vec<_>>());
        assert_eq!(head, Head::fit(&xs, &labels, 4, fitting));
    }

    #[test]
    fn a_fit_costs_as_its_multiply_adds() {
        // A project of 1,000 reflexes: eleven thousand texts, and a fit of 300 steps that took about
        // four fifths of the time they took to read.
        let fitting = Fitting { l2: 1e-4, steps: 300 };
        let cost = fitting.cost(11_000, 1_000, 384);
        assert!((7_000..10_000).contains(&cost), "{cost}");
        // Twice the examples or the steps, twice the cost, give or take the rounding up.
        assert!(fitting.cost(22_000, 1_000, 384).abs_diff(2 * cost) <= 1);
        assert!(Fitting { steps: 600, ..fitting }.cost(11_000, 1_000, 384).abs_diff(2 * cost) <= 1);
        assert_eq!(fitting.cost(0, 1_000, 384), 0);
    }

    #[test]
    fn the_same_examples_give_the_same_bits() {
        let xs: Vec<Vec<f32>> =
            (0..40).map(|i| unit((0..19).map(|j| ((i * 7 + j * 3) % 11) as f32 - 5.0).collect())).collect();
        let labels: Vec<usize> = (0..40).map(|i| i % 4).collect();
        let a = Head::fit(&xs, &labels, 4, Fitting::default());
        let b = Head::fit(&xs, &labels, 4, Fitting::default());
        let bits = |h: &Head| h.rows.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b));
        assert!(a.rows.iter().flatten().any(|x| *x != 0.0), "the fit moved the weights");
    }
}
