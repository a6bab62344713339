//! Kept answers as they go on the wire: the body, its gzip twin and a content tag, made once
//! when an answer is kept so that serving it, compressed or not, costs no work per request.

use bytes::Bytes;
use std::hash::{Hash, Hasher};
use std::io::Write;

/// Below this size the gzip header costs more than it saves.
const COMPRESS_FROM: usize = 1024;

/// A serialized answer (JSON of a public read, HTML of a public page) ready to serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptBody {
    pub plain: Bytes,
    /// The same bytes gzip-compressed, for clients that take it; `None` when compressing would
    /// not make it smaller (short answers).
    pub gzip: Option<Bytes>,
    /// A hash of `plain`, for an `ETag`.
    pub tag: u64,
}

impl KeptBody {
    /// Compresses and tags `plain`: the work of every later request, done once.
    pub fn new(plain: Bytes) -> Self {
        Self { tag: content_tag(&plain), gzip: gzip_if_smaller(&plain), plain }
    }

    /// What it holds in memory, both forms counted.
    pub fn size(&self) -> usize {
        self.plain.len() + self.gzip.as_ref().map_or(0, Bytes::len)
    }
}

/// `plain` gzip-compressed, when it is long enough for that to pay and comes out smaller.
pub fn gzip_if_smaller(plain: &[u8]) -> Option<Bytes> {
    (plain.len() >= COMPRESS_FROM).then(|| gzip(plain)).flatten().filter(|packed| packed.len() < plain.len()).map(Bytes::from)
}

/// A hash of a body, for its `ETag`.
pub fn content_tag(body: &[u8]) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut hasher);
    hasher.finish()
}

/// gzip at the fastest level: most of the gain for a small share of the cost. `None` only if
/// the encoder fails, which writing to memory does not.
pub fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::with_capacity(body.len() / 3), flate2::Compression::fast());
    encoder.write_all(body).ok()?;
    encoder.finish().ok()
}

/// Whether a client takes gzip, from the values of its `Accept-Encoding` headers: `gzip`
/// without `q=0`, or else `*` without `q=0` (a `gzip;q=0` refuses it whatever `*` says).
pub fn accepts_gzip<'a>(values: impl IntoIterator<Item = &'a str>) -> bool {
    let (mut gzip, mut any) = (None, None);
    for coding in values.into_iter().flat_map(|value| value.split(',')) {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused =
            parts.any(|param| param.replace(' ', "").strip_prefix("q=").and_then(|q| q.parse::<f32>().ok()).is_some_and(|q| q == 0.0));
        if name.eq_ignore_ascii_case("gzip") {
            gzip = Some(gzip.unwrap_or(false) || !refused);
        } else if name == "*" {
            any = Some(!refused);
        }
    }
    gzip.or(any).unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn a_long_body_keeps_a_gzip_twin_that_reads_back_as_the_body() {
        let plain = Bytes::from("{\"name\":\"Otter calendars\"},".repeat(200));
        let kept = KeptBody::new(plain.clone());
        let packed = kept.gzip.clone().expect("a 5 kB body is compressed");
        assert!(packed.len() < plain.len() / 4, "{} of {}", packed.len(), plain.len());
        let mut unpacked = Vec::new();
        flate2::read::GzDecoder::new(&packed[..]).read_to_end(&mut unpacked).unwrap();
        assert_eq!(unpacked, plain);
        assert_eq!(kept.size(), plain.len() + packed.len());
        assert_eq!(kept.tag, KeptBody::new(plain).tag, "the same body, the same tag");
        assert_ne!(kept.tag, KeptBody::new(Bytes::from("{}")).tag);
    }

    #[test]
    fn a_short_body_is_served_as_it_is() {
        let kept = KeptBody::new(Bytes::from_static(b"{\"ok\":true}"));
        assert_eq!((kept.size(), kept.gzip), (11, None));
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts_gzip(["gzip, deflate, br"]));
        assert!(accepts_gzip(["br", "GZIP;q=0.5"]));
        assert!(accepts_gzip(["*"]));
        assert!(accepts_gzip(["gzip;q=0.01"]));
        assert!(!accepts_gzip(["gzip;q=0"]));
        assert!(!accepts_gzip(["gzip; q=0.000"]));
        assert!(!accepts_gzip(["br, deflate"]));
        assert!(!accepts_gzip(["gzip;q=0, *"]), "named, it wins over the wildcard");
        assert!(!accepts_gzip(["*;q=0"]));
        assert!(!accepts_gzip([]));
    }
}
