//! Reading a CPU tensor's f64 values through its layout, for the custom operations whose
//! inputs may be views (a narrowed gate, a transposed head): contiguous views are read in
//! place, strided ones gathered once in row-major order.

use super::expand::walk_rows;
use candle_core::{backend::BackendStorage, CpuStorage, Layout, Tensor};

/// An f64 CPU storage's values as seen through `layout`, in row-major order of its shape (no
/// copy when the view is contiguous).
pub(super) fn with_values<R>(storage: &CpuStorage, layout: &Layout, what: &str, f: impl FnOnce(&[f64]) -> R) -> candle_core::Result<R> {
    let CpuStorage::F64(all) = storage else { candle_core::bail!("{what}: the input must be f64, not {:?}", storage.dtype()) };
    match layout.contiguous_offsets() {
        Some((start, end)) => Ok(f(&all[start..end])),
        None => Ok(f(&gather(all, layout))),
    }
}

/// The elements of a strided view, row-major: [`walk_rows`]' runs, contiguous ones copied whole.
fn gather(all: &[f64], layout: &Layout) -> Vec<f64> {
    let mut out = Vec::with_capacity(layout.shape().elem_count());
    walk_rows(layout.dims(), layout.stride(), layout.start_offset(), |_, j, len, step| match step {
        1 => out.extend_from_slice(&all[j..j + len]),
        s => out.extend((0..len).map(|t| all[j + t * s])),
    });
    out
}

/// A tensor's values as [`with_values`] reads them.
pub(super) fn tensor_values<R>(t: &Tensor, what: &str, f: impl FnOnce(&[f64]) -> R) -> candle_core::Result<R> {
    let (storage, layout) = t.storage_and_layout();
    let candle_core::Storage::Cpu(storage) = &*storage else { candle_core::bail!("{what}: only CPU tensors") };
    with_values(storage, layout, what, f)
}

/// The backward pass's three inputs, read in one place: the argument, the result, the incoming
/// gradient (all of one shape), mapped element by element.
pub(super) fn map3(arg: &Tensor, res: &Tensor, grad: &Tensor, what: &str, f: impl Fn(f64, f64, f64) -> f64) -> candle_core::Result<Tensor> {
    let out = tensor_values(arg, what, |x| {
        tensor_values(res, what, |y| tensor_values(grad, what, |g| x.iter().zip(y).zip(g).map(|((&x, &y), &g)| f(x, y, g)).collect::<Vec<f64>>()))
    })???;
    Tensor::from_vec(out, arg.shape(), arg.device())
}

#[cfg(test)]
mod tests {
    use super::*;
    use candle_core::Device;

    /// Transposed, narrowed and broadcast views read as candle reads them (its own copy to a
    /// contiguous tensor), and a contiguous view in place.
    #[test]
    fn every_view_reads_in_row_major_order() {
        let t = Tensor::arange(0f64, 24.0, &Device::Cpu).unwrap().reshape((2, 3, 4)).unwrap();
        let views = [
            t.clone(),
            t.transpose(1, 2).unwrap(),
            t.narrow(2, 1, 2).unwrap(),
            t.narrow(0, 1, 1).unwrap(),
            t.narrow(1, 1, 1).unwrap().broadcast_as((2, 5, 4)).unwrap(),
        ];
        for v in views {
            let read = tensor_values(&v, "test", <[f64]>::to_vec).unwrap();
            assert_eq!(read, v.contiguous().unwrap().flatten_all().unwrap().to_vec1::<f64>().unwrap(), "{:?}", v.layout());
        }
    }
}
