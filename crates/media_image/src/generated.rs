//! Pictures drawn from a number, for the demo directory and the benchmarks' seed: a logo (a
//! white mark on a rounded square in a colour of its own), a screenshot (an app's layout in
//! that colour: bar, sidebar, cards, a chart) and a portrait (a silhouette). The same number always draws the same picture,
//! so a seed stays reproducible and, kept by hash, two listings with one number share it.

use image::{ImageEncoder, Rgb, RgbImage, Rgba, RgbaImage};

/// The side of a drawn logo, in pixels.
pub const LOGO_SIDE: u32 = 128;

/// Screenshots' size, in pixels.
pub const SCREENSHOT_SIZE: (u32, u32) = (960, 600);

/// The numbers each picture is drawn from.
type Draw = kernel::SplitMix64;

/// A colour of `hue` (degrees) at saturation `s` and value `v` (0 to 1).
fn hsv(hue: f32, s: f32, v: f32) -> [u8; 3] {
    let c = v * s;
    let h = (hue % 360.0) / 60.0;
    let x = c * (1.0 - (h % 2.0 - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    [((r + m) * 255.0) as u8, ((g + m) * 255.0) as u8, ((b + m) * 255.0) as u8]
}

/// A logo drawn from `seed`, as PNG with transparent corners.
pub fn logo(seed: u64) -> Vec<u8> {
    let mut draw = Draw::new(seed);
    let hue = draw.below(360) as f32;
    let mark = draw.below(6);
    let top = hsv(hue, 0.65, 0.95);
    let bottom = hsv(hue + 25.0, 0.8, 0.7);
    let side = LOGO_SIDE as f32;
    // Is the point (0 to 1 on each axis) inside the rounded square, and inside the mark?
    let inside_tile = |x: f32, y: f32| {
        let r = 0.22;
        let dx = (x - 0.5).abs() - (0.5 - r);
        let dy = (y - 0.5).abs() - (0.5 - r);
        dx <= 0.0 || dy <= 0.0 || dx * dx + dy * dy <= r * r
    };
    let inside_mark = |x: f32, y: f32| {
        let (cx, cy) = (x - 0.5, y - 0.5);
        let d = (cx * cx + cy * cy).sqrt();
        match mark {
            0 => d < 0.24,
            1 => d < 0.26 && d > 0.14,
            2 => cy > -0.22 && cy < 0.2 && cx.abs() < (cy + 0.22) * 0.62,
            3 => cx.abs() + cy.abs() < 0.27,
            4 => cy.abs() < 0.22 && ((cx + 0.12).abs() < 0.06 || (cx - 0.12).abs() < 0.06),
            _ => cx > -0.22 && cy > -0.22 && ((cx + 0.22).powi(2) + (cy + 0.22).powi(2)).sqrt() < 0.44 && cx < 0.22 && cy < 0.22,
        }
    };
    let samples = 3;
    let picture = RgbaImage::from_fn(LOGO_SIDE, LOGO_SIDE, |px, py| {
        let (mut tile, mut marked) = (0u32, 0u32);
        for sx in 0..samples {
            for sy in 0..samples {
                let x = (px as f32 + (sx as f32 + 0.5) / samples as f32) / side;
                let y = (py as f32 + (sy as f32 + 0.5) / samples as f32) / side;
                if inside_tile(x, y) {
                    tile += 1;
                    marked += u32::from(inside_mark(x, y));
                }
            }
        }
        if tile == 0 {
            return Rgba([0, 0, 0, 0]);
        }
        let t = py as f32 / side;
        let background: Vec<f32> = (0..3).map(|c| f32::from(top[c]) * (1.0 - t) + f32::from(bottom[c]) * t).collect();
        let white = marked as f32 / tile as f32;
        let channel = |c: usize| (background[c] * (1.0 - white) + 255.0 * white).round() as u8;
        Rgba([channel(0), channel(1), channel(2), (255 * tile / (samples * samples)) as u8])
    });
    png(picture.as_raw(), LOGO_SIDE, LOGO_SIDE, image::ExtendedColorType::Rgba8)
}

/// The side of a drawn portrait, in pixels.
pub const AVATAR_SIDE: u32 = 256;

/// A portrait drawn from `seed`, as PNG: a head-and-shoulders silhouette in a light tone on a
/// background of a colour of its own (the demo's founders are imagined people, not photos).
pub fn avatar(seed: u64) -> Vec<u8> {
    let mut draw = Draw::new(seed ^ 0xA7A7_A7A7);
    let hue = draw.below(360) as f32;
    let (top, bottom) = (hsv(hue, 0.35, 0.92), hsv(hue + 20.0, 0.45, 0.78));
    let figure = hsv(hue + 180.0, 0.12, 0.98);
    let head_y = 0.36 + draw.below(5) as f32 / 100.0;
    let side = AVATAR_SIDE as f32;
    let inside = |x: f32, y: f32| {
        let head = (x - 0.5).powi(2) + (y - head_y).powi(2) < 0.17f32.powi(2);
        let shoulders = ((x - 0.5) / 0.36).powi(2) + ((y - 1.02) / 0.38).powi(2) < 1.0;
        head || shoulders
    };
    let samples = 3;
    let picture = RgbImage::from_fn(AVATAR_SIDE, AVATAR_SIDE, |px, py| {
        let mut covered = 0;
        for sx in 0..samples {
            for sy in 0..samples {
                let x = (px as f32 + (sx as f32 + 0.5) / samples as f32) / side;
                let y = (py as f32 + (sy as f32 + 0.5) / samples as f32) / side;
                covered += u32::from(inside(x, y));
            }
        }
        let t = py as f32 / side;
        let share = covered as f32 / (samples * samples) as f32;
        let channel = |c: usize| {
            ((f32::from(top[c]) * (1.0 - t) + f32::from(bottom[c]) * t) * (1.0 - share) + f32::from(figure[c]) * share).round() as u8
        };
        Rgb([channel(0), channel(1), channel(2)])
    });
    png(picture.as_raw(), AVATAR_SIDE, AVATAR_SIDE, image::ExtendedColorType::Rgb8)
}

/// A screenshot of an imagined app drawn from `seed`, as PNG.
pub fn screenshot(seed: u64) -> Vec<u8> {
    let mut draw = Draw::new(seed ^ 0x5C4E_E115);
    let hue = draw.below(360) as f32;
    let accent = Rgb(hsv(hue, 0.6, 0.85));
    let tint = Rgb(hsv(hue, 0.08, 0.97));
    let (width, height) = SCREENSHOT_SIZE;
    let mut picture = RgbImage::from_pixel(width, height, Rgb([244, 246, 248]));
    let mut fill = |x0: u32, y0: u32, x1: u32, y1: u32, colour: Rgb<u8>| {
        for y in y0..y1.min(height) {
            for x in x0..x1.min(width) {
                picture.put_pixel(x, y, colour);
            }
        }
    };
    let line = Rgb([214, 218, 224]);
    let text = Rgb([190, 196, 204]);
    fill(0, 0, width, 52, accent);
    fill(0, 52, 200, height, tint);
    for row in 0..7 {
        fill(24, 84 + row * 40, 24 + 90 + (draw.below(60) as u32), 96 + row * 40, text);
    }
    for card in 0..3 {
        let x = 228 + card * 240;
        fill(x, 80, x + 220, 200, line);
        fill(x + 1, 81, x + 219, 199, Rgb([255, 255, 255]));
        fill(x + 20, 104, x + 20 + 60 + draw.below(100) as u32, 116, text);
        fill(x + 20, 140, x + 120, 170, accent);
    }
    fill(228, 224, 932, 572, line);
    fill(229, 225, 931, 571, Rgb([255, 255, 255]));
    for bar in 0..12 {
        let tall = 60 + draw.below(240) as u32;
        let x = 260 + bar * 54;
        fill(x, 540 - tall, x + 34, 540, if bar % 4 == 3 { Rgb(hsv(hue + 160.0, 0.5, 0.8)) } else { accent });
    }
    png(picture.as_raw(), width, height, image::ExtendedColorType::Rgb8)
}

/// Pixels as PNG (empty should the encoder fail, which it does not for these sizes).
fn png(pixels: &[u8], width: u32, height: u32, color: image::ExtendedColorType) -> Vec<u8> {
    let mut bytes = Vec::new();
    let encoded = image::codecs::png::PngEncoder::new(&mut bytes).write_image(pixels, width, height, color);
    encoded.map(|()| bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_number_draws_the_same_picture_and_others_differ() {
        assert_eq!(logo(7), logo(7));
        assert_ne!(logo(7), logo(8));
        let kept = crate::clean(&logo(7), media::ImageLimits::default()).unwrap();
        assert_eq!((kept.format, kept.width, kept.height), (kernel::ImageFormat::Webp, LOGO_SIDE, LOGO_SIDE));
        let shot = crate::clean(&screenshot(7), media::ImageLimits::default()).unwrap();
        assert_eq!((shot.format, shot.width, shot.height), (kernel::ImageFormat::Jpeg, 960, 600));
        assert_ne!(avatar(7), avatar(8));
        let face = crate::clean(&avatar(7), media::ImageLimits::default()).unwrap();
        assert_eq!((face.format, face.width, face.height), (kernel::ImageFormat::Jpeg, AVATAR_SIDE, AVATAR_SIDE));
    }
}
