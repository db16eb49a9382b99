//! A multinomial logistic regression over sentence vectors: the classifier a route learns from its
//! reflexes' examples. One weight row and one bias per class, fitted by minimizing the mean cross-entropy
//! of the examples plus an L2 penalty on the weights (not the biases), by full-batch gradient descent
//! with Nesterov momentum from zero weights for a fixed number of steps.
//!
//! Deterministic: no random start, no shuffling; every sum is taken in one fixed order, whatever the
//! number of threads the work is shared among, so the same examples give the same weights, bit for bit.

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

/// A fitted head: per class, its weights followed by its bias.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub rows: Vec<Vec<f32>>,
}

impl Head {
    /// Fits a head of `classes` classes to the vectors `xs` (all of one length) labelled `labels`.
    /// A class without an example keeps zero weights and a bias the fit pushes down.
    pub fn fit(xs: &[Vec<f32>], labels: &[usize], classes: usize, fitting: Fitting) -> Head {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS);
        fit_on(xs, labels, classes, fitting, threads)
    }
    /// Each class's logit for a vector, in class order.
    pub fn logits(&self, x: &[f32]) -> Vec<f32> {
        logits(&self.rows, x)
    }
}

/// The most threads a fit shares its work among.
const MAX_THREADS: usize = 8;
/// How many examples' errors are held at once: the memory a step needs is this many rows of one value
/// per class, whatever the number of examples.
const BLOCK: usize = 256;

/// [`Head::fit`] on `threads` threads. Each weight's gradient is summed over the examples in their
/// order, whatever the number of threads, so every count of threads gives the same bits: the threads
/// share out examples while the errors are computed, and classes while they are summed.
fn fit_on(xs: &[Vec<f32>], labels: &[usize], classes: usize, fitting: Fitting, threads: usize) -> Head {
    let dim = xs.first().map_or(0, Vec::len);
    let n = xs.len().min(labels.len());
    let zero = || vec![vec![0.0f32; dim + 1]; classes];
    if n == 0 || classes == 0 {
        return Head { rows: zero() };
    }
    // Unit vectors with a bias input of one: the loss's curvature is at most one plus the penalty.
    let rate = 1.0 / (1.0 + fitting.l2);
    let mut w = zero();
    let mut previous = zero();
    let mut look = zero();
    let mut grad = zero();
    let mut errors = vec![0.0f32; BLOCK.min(n) * classes];
    let scale = 1.0 / n as f32;
    // Threads pay only where there is work enough to share.
    let threads = if classes * dim < 4_096 { 1 } else { threads.max(1) };
    for step in 0..fitting.steps {
        // The point the momentum looks ahead to.
        let momentum = step as f32 / (step as f32 + 3.0);
        for k in 0..classes {
            for j in 0..=dim {
                look[k][j] = w[k][j] + momentum * (w[k][j] - previous[k][j]);
            }
        }
        for g in grad.iter_mut() {
            g.iter_mut().for_each(|x| *x = 0.0);
        }
        for from in (0..n).step_by(BLOCK) {
            let to = (from + BLOCK).min(n);
            let block = &mut errors[..(to - from) * classes];
            // Each example's error per class: its probability less one for its own class, per example.
            shared(block, classes, threads, |first, rows| {
                let mut p = vec![0.0f32; classes];
                for (r, row) in rows.chunks_mut(classes).enumerate() {
                    let i = from + first + r;
                    for (k, pk) in p.iter_mut().enumerate() {
                        *pk = crate::dot(&look[k][..dim], &xs[i]) + look[k][dim];
                    }
                    softmax_in_place(&mut p);
                    for (k, e) in row.iter_mut().enumerate() {
                        *e = (p[k] - if k == labels[i] { 1.0 } else { 0.0 }) * scale;
                    }
                }
            });
            let block = &errors[..(to - from) * classes];
            // Each class's gradient, summed over the block's examples in their order.
            shared(&mut grad, 1, threads, |first, rows| {
                for (c, g) in rows.iter_mut().enumerate() {
                    let k = first + c;
                    for r in 0..to - from {
                        let e = block[r * classes + k];
                        let x = &xs[from + r];
                        for j in 0..dim {
                            g[j] += e * x[j];
                        }
                        g[dim] += e;
                    }
                }
            });
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

    /// The fit as the definition reads, one example at a time through every class: what a fit in
    /// blocks and threads must give, bit for bit (a cached head and the engine's figures rest on it).
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

    #[test]
    fn any_number_of_threads_gives_the_bits_of_one() {
        // Enough classes and examples that the work is shared, and a last block shorter than the rest.
        let dim = 48;
        let classes = 97;
        let n = 2 * BLOCK + 37;
        let xs: Vec<Vec<f32>> =
            (0..n).map(|i| unit((0..dim).map(|j| (((i * 31 + j * 17) % 23) as f32 - 11.0) * 0.37).collect())).collect();
        let labels: Vec<usize> = (0..n).map(|i| (i * 13) % classes).collect();
        let fitting = Fitting { l2: 1e-3, steps: 7 };
        let bits = |h: &Head| h.rows.iter().flatten().map(|x| x.to_bits()).collect::<Vec<_>>();
        let one = fit_on(&xs, &labels, classes, fitting, 1);
        assert_eq!(bits(&one), bits(&one_example_at_a_time(&xs, &labels, classes, fitting)));
        for threads in [2, 3, 8] {
            assert_eq!(bits(&fit_on(&xs, &labels, classes, fitting, threads)), bits(&one), "{threads} threads");
        }
        assert!(one.rows.iter().flatten().any(|x| *x != 0.0), "the fit moved the weights");
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
