//! The codec against real pictures made here, and against each kind of bad input the issue
//! names: a text file, a decompression bomb, too many bytes, SVG that runs or fetches, and an
//! animation of thousands of frames.

use super::*;
use image::codecs::gif::GifEncoder;
use image::{Delay, Frame, ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};

fn limits() -> ImageLimits {
    ImageLimits::default()
}

fn png(picture: &RgbaImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(picture.as_raw(), picture.width(), picture.height(), image::ExtendedColorType::Rgba8)
        .unwrap();
    bytes
}

fn jpeg(picture: &RgbImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 90).encode_image(picture).unwrap();
    bytes
}

/// A JPEG with an EXIF segment (orientation 6: turn a quarter clockwise) and a comment right
/// after its start marker, as cameras and phones write them.
fn jpeg_with_metadata(picture: &RgbImage) -> Vec<u8> {
    let plain = jpeg(picture);
    let tiff: Vec<u8> = [&b"MM\0\x2a\0\0\0\x08"[..], &[0, 1], &[0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0], &[0, 0, 0, 0]].concat();
    let exif = [&b"Exif\0\0"[..], &tiff].concat();
    let segment = |marker: u8, body: &[u8]| [&[0xff, marker][..], &((body.len() + 2) as u16).to_be_bytes(), body].concat();
    [&plain[..2], &segment(0xe1, &exif), &segment(0xfe, b"taken at 48.8584 N, 2.2945 E"), &plain[2..]].concat()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|window| window == needle)
}

#[test]
fn a_transparent_png_is_kept_as_lossless_webp_and_an_opaque_one_as_jpeg() {
    let mut logo = RgbaImage::from_pixel(300, 200, Rgba([0, 0, 0, 0]));
    for (x, y, pixel) in logo.enumerate_pixels_mut() {
        if (x as i32 - 150).pow(2) + (y as i32 - 100).pow(2) < 80 * 80 {
            *pixel = Rgba([200, 40, 40, 255]);
        }
    }
    let clean = clean(&png(&logo), limits()).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (ImageFormat::Webp, 300, 200));
    let back = image::load_from_memory(&clean.bytes).unwrap().to_rgba8();
    assert_eq!(back.get_pixel(150, 100), &Rgba([200, 40, 40, 255]), "lossless");
    assert_eq!(back.get_pixel(0, 0).0[3], 0);

    let opaque = RgbaImage::from_pixel(64, 64, Rgba([10, 20, 30, 255]));
    assert_eq!(clean_format(&png(&opaque)), ImageFormat::Jpeg, "an alpha channel nobody uses is dropped");
}

fn clean_format(bytes: &[u8]) -> ImageFormat {
    clean(bytes, limits()).unwrap().format
}

#[test]
fn metadata_is_stripped_after_the_picture_is_turned_upright() {
    let photo = RgbImage::from_fn(120, 80, |x, _| Rgb([(x * 2) as u8, 100, 50]));
    let uploaded = jpeg_with_metadata(&photo);
    assert!(contains(&uploaded, b"Exif") && contains(&uploaded, b"48.8584"));
    let clean = clean(&uploaded, limits()).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (ImageFormat::Jpeg, 80, 120), "orientation 6 applied");
    assert!(!contains(&clean.bytes, b"Exif"), "no EXIF left");
    assert!(!contains(&clean.bytes, b"48.8584"), "no comment left");
}

#[test]
fn a_text_file_named_png_is_not_an_image() {
    assert_eq!(clean(b"just some notes, saved as notes.png\n", limits()), Err(ImageRefusal::NotAnImage));
    assert_eq!(clean(b"", limits()), Err(ImageRefusal::Empty));
    let mut truncated = png(&RgbaImage::from_pixel(50, 50, Rgba([1, 2, 3, 128])));
    truncated.truncate(60);
    assert!(matches!(clean(&truncated, limits()), Err(ImageRefusal::Broken { format: "PNG", .. })));
}

#[test]
fn a_decompression_bomb_is_refused_from_its_header() {
    let bomb = crate::testing::png_bomb(30_000);
    assert!(bomb.len() < 100);
    assert_eq!(
        clean(&bomb, limits()),
        Err(ImageRefusal::TooManyPixels { width: 30_000, height: 30_000, max_pixels: 40_000_000, max_side: 16_000 })
    );
    let message = clean(&bomb, limits()).unwrap_err().to_string();
    assert_eq!(message, "is 30000 × 30000 pixels; an image may have at most 40000000 pixels and 16000 a side");
}

#[test]
fn a_file_over_the_byte_limit_is_refused_before_it_is_read() {
    let mut big = png(&RgbaImage::from_pixel(8, 8, Rgba([0, 0, 0, 255])));
    big.resize(12 * 1024 * 1024, 0);
    assert_eq!(clean(&big, limits()), Err(ImageRefusal::TooManyBytes { bytes: 12 * 1024 * 1024, max: 10 * 1024 * 1024 }));
    assert!(clean(&big, limits()).unwrap_err().to_string().contains("at most 10485760 bytes (10 MiB)"));
}

fn gif(frames: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    {
        let mut encoder = GifEncoder::new(&mut bytes);
        encoder
            .encode_frames((0..frames).map(|at| {
                let shade = (at % 200) as u8;
                Frame::from_parts(RgbaImage::from_pixel(4, 4, Rgba([shade, 0, 0, 255])), 0, 0, Delay::from_numer_denom_ms(10, 1))
            }))
            .unwrap();
    }
    bytes
}

#[test]
fn an_animation_of_thousands_of_frames_is_refused_and_a_short_one_keeps_its_first() {
    assert_eq!(clean(&gif(3000), limits()), Err(ImageRefusal::TooManyFrames { max: 100 }));
    let short = clean(&gif(3), limits()).unwrap();
    assert_eq!((short.format, short.width, short.height), (ImageFormat::Jpeg, 4, 4));
}

const CIRCLE: &str = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50"><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient><circle cx="25" cy="25" r="20" fill="url(#g)"/></svg>"##;

#[test]
fn a_plain_svg_is_drawn_to_pixels_and_never_kept_as_markup() {
    let clean = clean(CIRCLE.as_bytes(), limits()).unwrap();
    assert_eq!((clean.format, clean.width, clean.height), (ImageFormat::Webp, 512, 256));
    assert!(!contains(&clean.bytes, b"<svg"));
    let back = image::load_from_memory(&clean.bytes).unwrap().to_rgba8();
    assert_eq!(back.get_pixel(128, 128).0, [255, 0, 0, 255]);
    assert_eq!(back.get_pixel(500, 10).0[3], 0);
}

#[test]
fn svg_that_runs_fetches_or_expands_anything_is_refused() {
    let cases = [
        (r#"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="9" height="9"/></svg>"#, "runs a script"),
        (
            r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" onload="alert(1)"/></svg>"#,
            "has event handlers, which run scripts",
        ),
        (
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><use xlink:href="https://tracker.example/x.svg#a"/></svg>"#,
            "loads something from elsewhere",
        ),
        (
            r#"<svg xmlns="http://www.w3.org/2000/svg"><rect width="9" height="9" fill="url(https://x.example/p)"/></svg>"#,
            "loads something from elsewhere",
        ),
        (
            r#"<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(//x.example/a.css);</style></svg>"#,
            "loads something from elsewhere",
        ),
        (
            r#"<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect width="9" height="9"/></a></svg>"#,
            "runs a script",
        ),
        (r#"<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="9">Acme</text></svg>"#, "holds text (convert the text to paths)"),
    ];
    for (markup, reason) in cases {
        assert_eq!(clean(markup.as_bytes(), limits()), Err(ImageRefusal::UnsafeSvg(reason)), "{markup}");
    }
    let script_and_reference = r#"<svg xmlns="http://www.w3.org/2000/svg"><image href="https://x.example/a.png"/><script>1</script></svg>"#;
    let message = clean(script_and_reference.as_bytes(), limits()).unwrap_err().to_string();
    assert!(message.starts_with("is an SVG that "), "{message}");
    let laughs = r#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><desc>&b;</desc></svg>"#;
    assert!(matches!(clean(laughs.as_bytes(), limits()), Err(ImageRefusal::Broken { format: "SVG", .. })));
}

#[test]
fn scaled_copies_keep_the_aspect_ratio_and_clean_edges() {
    let mut logo = RgbaImage::from_pixel(400, 200, Rgba([0, 0, 0, 0]));
    for x in 0..200 {
        for y in 0..200 {
            logo.put_pixel(x, y, Rgba([255, 255, 255, 255]));
        }
    }
    let kept = clean(&png(&logo), limits()).unwrap();
    let scaled = raster::scale(&kept.bytes, kept.format, 128).unwrap();
    let picture = image::load_from_memory(&scaled).unwrap().to_rgba8();
    assert_eq!(picture.dimensions(), (128, 64));
    // Where white meets transparency, a pixel that shows at all is still white, not grey.
    for pixel in picture.pixels().filter(|pixel| pixel.0[3] > 0) {
        assert!(pixel.0[0] >= 250, "{pixel:?}");
    }
    assert!(raster::scale(&kept.bytes, kept.format, 400).is_err(), "never as wide as the original");
    let photo = clean(&jpeg(&RgbImage::from_pixel(700, 300, Rgb([9, 9, 9]))), limits()).unwrap();
    let scaled = raster::scale(&photo.bytes, photo.format, 640).unwrap();
    assert_eq!(raster::dimensions(&scaled, ImageFormat::Jpeg), Some((640, 274)));
    // Much narrower: averaged down first, then filtered, to the same exact size.
    let scaled = raster::scale(&photo.bytes, photo.format, 64).unwrap();
    assert_eq!(raster::dimensions(&scaled, ImageFormat::Jpeg), Some((64, kernel::scaled_height(700, 300, 64))));
}

fn card(title: &str, subtitle: Option<&str>) -> SocialCard {
    SocialCard {
        site_name: "Launchdir".into(),
        kind: "Product".into(),
        title: title.into(),
        subtitle: subtitle.map(Into::into),
        logos: vec![],
        facts: vec!["▲ 124 votes".into(), "Launched the week of 2026-11-23".into()],
    }
}

/// The share of a region's pixels that are dark ink, not the white page.
fn inked(picture: &RgbImage, left: u32, top: u32, width: u32, height: u32) -> f64 {
    let mut dark = 0;
    for y in top..top + height {
        for x in left..left + width {
            if picture.get_pixel(x, y).0.iter().all(|channel| *channel < 120) {
                dark += 1;
            }
        }
    }
    f64::from(dark) / f64::from(width * height)
}

#[test]
fn a_social_card_is_a_png_with_its_text_and_logo_drawn() {
    let logo = clean(&crate::generated::logo(7), limits()).unwrap();
    let logos = vec![Some((Bytes::from(logo.bytes), logo.format))];
    let drawn = card::draw(&SocialCard { logos: vec![], ..card("Acme Rockets", Some("Rockets for everyone")) }, &logos).unwrap();
    assert_eq!(image::guess_format(&drawn).unwrap(), image::ImageFormat::Png);
    if let Ok(dir) = std::env::var("LAUNCHDIR_CARD_DIR") {
        std::fs::write(format!("{dir}/card-logo.png"), &drawn).unwrap();
    }
    let picture = image::load_from_memory(&drawn).unwrap().into_rgb8();
    assert_eq!(picture.dimensions(), (SocialCard::WIDTH, SocialCard::HEIGHT));
    assert_eq!(picture.get_pixel(600, 4).0, [0x0b, 0x57, 0xd0], "the accent bar along the top");
    assert_eq!(picture.get_pixel(1190, 320).0, [255, 255, 255], "the page is white");
    assert!(inked(&picture, 304, 140, 600, 70) > 0.05, "the title is written");
    assert!(inked(&picture, 304, 400, 600, 100) == 0.0, "one line of title and one of tagline");
    // Inside the box, left of the logo's white mark: the logo's own colour.
    let logo = picture.get_pixel(80 + 30, 140 + 84).0;
    assert_ne!(logo, [255, 255, 255], "the logo is drawn in its box");
    assert_ne!(logo, [0x0b, 0x57, 0xd0], "and not the letter tile");
    assert!(inked(&picture, 80, 510, 300, 64) > 0.02, "the facts are written along the bottom");
}

#[test]
fn a_card_without_a_logo_has_the_letter_tile_and_long_text_is_cut() {
    let long = "An extraordinarily long product name that goes on and on well past two lines of the card";
    let tagline = "word ".repeat(200);
    let drawn = card::draw(&card(long, Some(&tagline)), &[None]).unwrap();
    if let Ok(dir) = std::env::var("LAUNCHDIR_CARD_DIR") {
        std::fs::write(format!("{dir}/card-tile.png"), &drawn).unwrap();
    }
    let picture = image::load_from_memory(&drawn).unwrap().into_rgb8();
    assert_eq!(picture.get_pixel(80 + 10, 140 + 84).0, [0x0b, 0x57, 0xd0], "a logo that could not be read leaves the tile");
    assert!(inked(&picture, 304, 140, 816, 150) > 0.05, "two lines of title");
    assert_eq!(inked(&picture, 0, 490, 1200, 12), 0.0, "the tagline stops at three lines, above the facts");
    assert!(inked(&picture, 1120, 0, 80, 630) == 0.0, "nothing runs into the right margin");
}
