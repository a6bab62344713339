//! Pictures made for tests of other crates (feature `testing`): a decompression bomb, a PNG
//! whose header states a size its few bytes do not hold.

/// A PNG whose header states `side` × `side` pixels (3.6 GB decoded at 30,000) in a few dozen bytes.
pub fn png_bomb(side: u32) -> Vec<u8> {
    let chunk = |kind: &[u8], data: &[u8]| {
        let crc = crc32(&[kind, data].concat());
        [&(data.len() as u32).to_be_bytes()[..], kind, data, &crc.to_be_bytes()].concat()
    };
    let header = [&side.to_be_bytes()[..], &side.to_be_bytes(), &[8, 6, 0, 0, 0]].concat();
    [&b"\x89PNG\r\n\x1a\n"[..], &chunk(b"IHDR", &header), &chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0, 0, 0, 0, 1]), &chunk(b"IEND", &[])]
        .concat()
}

pub fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for byte in bytes {
        crc ^= u32::from(*byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}
