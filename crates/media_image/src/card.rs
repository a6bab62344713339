//! Social cards (`media::SocialCard`) drawn as 1200 × 630 PNG with tiny-skia (through resvg) and
//! a bundled font, DejaVu Sans cut to Latin, Greek and Cyrillic (`fonts/README.md`): the server
//! needs no font of its own. Shapes and glyph outlines are filled as paths; logos are decoded
//! from their kept copies and drawn scaled into their boxes. The colours are the site's.

use image::ImageEncoder;
use kernel::ImageFormat;
use media::SocialCard;
use resvg::tiny_skia::{Color, FillRule, FilterQuality, IntSize, Paint, Path, PathBuilder, Pixmap, PixmapPaint, Transform};
use std::sync::LazyLock;
use ttf_parser::{Face, GlyphId, OutlineBuilder};

static REGULAR: LazyLock<Face<'static>> =
    LazyLock::new(|| Face::parse(include_bytes!("../fonts/DejaVuSans.subset.ttf"), 0).expect("the bundled font is a font"));
static BOLD: LazyLock<Face<'static>> =
    LazyLock::new(|| Face::parse(include_bytes!("../fonts/DejaVuSans-Bold.subset.ttf"), 0).expect("the bundled font is a font"));

/// `--fg`, `--muted`, `--accent`, `--card` and `--line` of the site's light theme.
const INK: [u8; 3] = [0x1d, 0x1d, 0x1f];
const MUTED: [u8; 3] = [0x55, 0x5a, 0x60];
const ACCENT: [u8; 3] = [0x0b, 0x57, 0xd0];
const PILL: [u8; 3] = [0xf5, 0xf6, 0xf7];
const LINE: [u8; 3] = [0xd5, 0xd8, 0xdc];
const WHITE: [u8; 3] = [0xff, 0xff, 0xff];

const MARGIN: f32 = 80.0;
const TOP: f32 = 140.0;
/// One logo (or the letter tile) is this big; two or three are stacked smaller.
const LOGO_BIG: f32 = SocialCard::LOGO_PX as f32;
const LOGO_SMALL: f32 = 104.0;
const TEXT_LEFT: f32 = MARGIN + LOGO_BIG + 56.0;
const PILL_HEIGHT: f32 = 64.0;

/// Draws `card` as PNG. `logos` are the kept copies of its logos, `None` where one could not
/// be read; with none readable, the title's first letter is drawn on a tile.
pub fn draw(card: &SocialCard, logos: &[Option<(bytes::Bytes, ImageFormat)>]) -> Result<Vec<u8>, String> {
    let (width, height) = (SocialCard::WIDTH, SocialCard::HEIGHT);
    let mut pixmap = Pixmap::new(width, height).ok_or("no room for a card")?;
    pixmap.fill(color(WHITE));
    fill(&mut pixmap, &rounded(0.0, 0.0, width as f32, 14.0, 0.0), ACCENT);

    let site = Text { face: &BOLD, px: 30.0 };
    let kind = Text { face: &REGULAR, px: 30.0 };
    let site_name = fitted(&site, &clean(&card.site_name), 500.0);
    site.draw(&mut pixmap, &site_name, MARGIN, 92.0, ACCENT);
    let kind_left = MARGIN + site.width(&site_name) + 16.0;
    kind.draw(&mut pixmap, &fitted(&kind, &format!("· {}", clean(&card.kind)), width as f32 - MARGIN - kind_left), kind_left, 92.0, MUTED);

    let pictures: Vec<Pixmap> = logos.iter().flatten().filter_map(|(bytes, format)| decoded(bytes, *format)).collect();
    let title = clean(&card.title);
    if pictures.is_empty() {
        letter_tile(&mut pixmap, &title);
    } else {
        let side = if pictures.len() == 1 { LOGO_BIG } else { LOGO_SMALL };
        for (i, picture) in pictures.iter().enumerate() {
            logo_box(&mut pixmap, picture, MARGIN + (LOGO_BIG - side) / 2.0, TOP + i as f32 * (side + 20.0), side);
        }
    }

    let text_width = width as f32 - MARGIN - TEXT_LEFT;
    let heading = Text { face: &BOLD, px: 64.0 };
    let mut baseline = TOP + 56.0;
    for line in wrapped(&heading, &title, text_width, 2) {
        heading.draw(&mut pixmap, &line, TEXT_LEFT, baseline, INK);
        baseline += 76.0;
    }
    if let Some(subtitle) = &card.subtitle {
        let body = Text { face: &REGULAR, px: 34.0 };
        baseline += 2.0;
        for line in wrapped(&body, &clean(subtitle), text_width, 3) {
            body.draw(&mut pixmap, &line, TEXT_LEFT, baseline, MUTED);
            baseline += 46.0;
        }
    }

    let fact = Text { face: &BOLD, px: 28.0 };
    let (mut left, top) = (MARGIN, height as f32 - 56.0 - PILL_HEIGHT);
    for said in card.facts.iter().take(SocialCard::MAX_FACTS) {
        let room = width as f32 - MARGIN - left - 56.0;
        if room < 120.0 {
            break;
        }
        let said = fitted(&fact, &clean(said), room);
        let pill = fact.width(&said) + 56.0;
        fill(&mut pixmap, &rounded(left, top, pill, PILL_HEIGHT, PILL_HEIGHT / 2.0), PILL);
        fact.draw(&mut pixmap, &said, left + 28.0, top + 42.0, INK);
        left += pill + 16.0;
    }
    png(&pixmap)
}

/// A font at a size, measuring and drawing one line at a time.
struct Text<'f> {
    face: &'f Face<'static>,
    px: f32,
}

impl Text<'_> {
    fn scale(&self) -> f32 {
        self.px / f32::from(self.face.units_per_em())
    }

    /// The glyph for `ch`: the font's own, the "missing" box for a letter it lacks, and
    /// nothing for an emoji or symbol it lacks (they decorate more than they say).
    fn glyph(&self, ch: char) -> Option<GlyphId> {
        self.face.glyph_index(ch).or_else(|| ch.is_alphanumeric().then_some(GlyphId(0)))
    }

    fn advance(&self, glyph: GlyphId) -> f32 {
        f32::from(self.face.glyph_hor_advance(glyph).unwrap_or(0)) * self.scale()
    }

    fn width(&self, text: &str) -> f32 {
        text.chars().filter_map(|ch| self.glyph(ch)).map(|glyph| self.advance(glyph)).sum()
    }

    fn draw(&self, pixmap: &mut Pixmap, text: &str, left: f32, baseline: f32, rgb: [u8; 3]) {
        let mut outline = Outline { path: PathBuilder::new(), left, baseline, scale: self.scale() };
        for glyph in text.chars().filter_map(|ch| self.glyph(ch)) {
            self.face.outline_glyph(glyph, &mut outline);
            outline.left += self.advance(glyph);
        }
        if let Some(path) = outline.path.finish() {
            fill(pixmap, &path, rgb);
        }
    }
}

/// Glyph outlines (font units, y up) turned into one path on the card (pixels, y down).
struct Outline {
    path: PathBuilder,
    left: f32,
    baseline: f32,
    scale: f32,
}

impl Outline {
    fn at(&self, x: f32, y: f32) -> (f32, f32) {
        (self.left + x * self.scale, self.baseline - y * self.scale)
    }
}

impl OutlineBuilder for Outline {
    fn move_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        self.path.move_to(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        let (x, y) = self.at(x, y);
        self.path.line_to(x, y);
    }

    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let ((x1, y1), (x, y)) = (self.at(x1, y1), self.at(x, y));
        self.path.quad_to(x1, y1, x, y);
    }

    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let ((x1, y1), (x2, y2), (x, y)) = (self.at(x1, y1), self.at(x2, y2), self.at(x, y));
        self.path.cubic_to(x1, y1, x2, y2, x, y);
    }

    fn close(&mut self) {
        self.path.close();
    }
}

/// One line: whitespace collapsed, control characters dropped.
fn clean(text: &str) -> String {
    text.split_whitespace().map(|word| word.chars().filter(|ch| !ch.is_control()).collect::<String>()).collect::<Vec<_>>().join(" ")
}

/// `text` cut with an ellipsis where it would be wider than `room`.
fn fitted(font: &Text, text: &str, room: f32) -> String {
    if font.width(text) <= room {
        return text.to_owned();
    }
    let mut cut: String = text.to_owned();
    while !cut.is_empty() && font.width(&format!("{}…", cut.trim_end())) > room {
        cut.pop();
    }
    format!("{}…", cut.trim_end())
}

/// The start of `text` that fits in `room` with "…" after it, cut between words when a whole
/// word fits.
fn ended(font: &Text, text: &str, room: f32) -> String {
    let mut words: Vec<&str> = text.split(' ').collect();
    while words.len() > 1 {
        words.pop();
        let start = words.join(" ");
        let start = start.trim_end_matches([',', ';', ':', '.', '-', '–', '—']);
        if font.width(&format!("{start}…")) <= room {
            return format!("{start}…");
        }
    }
    fitted(font, &format!("{text}…"), room)
}

/// `text` in lines no wider than `room`, broken between words (inside a word only when it is
/// wider than a line), at most `max_lines`; what does not fit ends the last line with "…".
fn wrapped(font: &Text, text: &str, room: f32, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let joined = if line.is_empty() { word.to_owned() } else { format!("{line} {word}") };
        if font.width(&joined) <= room {
            line = joined;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        for ch in word.chars() {
            if font.width(&format!("{line}{ch}")) > room && !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            line.push(ch);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > max_lines {
        let rest = lines.split_off(max_lines - 1).join(" ");
        lines.push(ended(font, &rest, room));
    }
    lines
}

fn color([r, g, b]: [u8; 3]) -> Color {
    Color::from_rgba8(r, g, b, 255)
}

fn fill(pixmap: &mut Pixmap, path: &Path, rgb: [u8; 3]) {
    let mut paint = Paint::default();
    paint.set_color(color(rgb));
    paint.anti_alias = true;
    pixmap.fill_path(path, &paint, FillRule::Winding, Transform::identity(), None);
}

/// A rectangle with rounded corners (a square one with `radius` 0).
fn rounded(left: f32, top: f32, width: f32, height: f32, radius: f32) -> Path {
    let (right, bottom, r) = (left + width, top + height, radius.min(width / 2.0).min(height / 2.0));
    // The control point that makes a cubic follow a quarter circle.
    let k = r * 0.552_284_8;
    let mut path = PathBuilder::new();
    path.move_to(left + r, top);
    path.line_to(right - r, top);
    path.cubic_to(right - r + k, top, right, top + r - k, right, top + r);
    path.line_to(right, bottom - r);
    path.cubic_to(right, bottom - r + k, right - r + k, bottom, right - r, bottom);
    path.line_to(left + r, bottom);
    path.cubic_to(left + r - k, bottom, left, bottom - r + k, left, bottom - r);
    path.line_to(left, top + r);
    path.cubic_to(left, top + r - k, left + r - k, top, left + r, top);
    path.close();
    path.finish().unwrap_or_else(|| PathBuilder::from_rect(resvg::tiny_skia::Rect::from_xywh(0.0, 0.0, 1.0, 1.0).expect("a unit square")))
}

/// The site's tile for a product without a logo: its first letter on the accent colour.
fn letter_tile(pixmap: &mut Pixmap, title: &str) {
    fill(pixmap, &rounded(MARGIN, TOP, LOGO_BIG, LOGO_BIG, 28.0), ACCENT);
    let letter = Text { face: &BOLD, px: 96.0 };
    let initial: String = title.chars().find(|ch| ch.is_alphanumeric()).map(|ch| ch.to_uppercase().collect()).unwrap_or_default();
    let left = MARGIN + (LOGO_BIG - letter.width(&initial)) / 2.0;
    // Capitals stand about 0.73 of the size above the baseline.
    letter.draw(pixmap, &initial, left, TOP + (LOGO_BIG + 96.0 * 0.73) / 2.0, WHITE);
}

/// A logo contained in a white box with the site's border, as the site's cards show it.
fn logo_box(pixmap: &mut Pixmap, picture: &Pixmap, left: f32, top: f32, side: f32) {
    let radius = side * 0.16;
    fill(pixmap, &rounded(left, top, side, side, radius), LINE);
    fill(pixmap, &rounded(left + 2.0, top + 2.0, side - 4.0, side - 4.0, radius - 2.0), WHITE);
    let inner = side - 2.0 * (side * 0.1);
    let scale = (inner / picture.width() as f32).min(inner / picture.height() as f32);
    let (drawn_width, drawn_height) = (picture.width() as f32 * scale, picture.height() as f32 * scale);
    let transform = Transform::from_row(scale, 0.0, 0.0, scale, left + (side - drawn_width) / 2.0, top + (side - drawn_height) / 2.0);
    let paint = PixmapPaint { quality: FilterQuality::Bicubic, ..PixmapPaint::default() };
    pixmap.draw_pixmap(0, 0, picture.as_ref(), &paint, transform, None);
}

/// A kept copy decoded to premultiplied pixels, as tiny-skia draws them.
fn decoded(bytes: &[u8], format: ImageFormat) -> Option<Pixmap> {
    let format = match format {
        ImageFormat::Jpeg => image::ImageFormat::Jpeg,
        ImageFormat::Webp => image::ImageFormat::WebP,
        ImageFormat::Png => image::ImageFormat::Png,
    };
    let picture = image::load_from_memory_with_format(bytes, format).ok()?.into_rgba8();
    let size = IntSize::from_wh(picture.width(), picture.height())?;
    let mut pixels = picture.into_raw();
    for pixel in pixels.chunks_exact_mut(4) {
        let alpha = u16::from(pixel[3]);
        for channel in &mut pixel[..3] {
            *channel = ((u16::from(*channel) * alpha + 127) / 255) as u8;
        }
    }
    Pixmap::from_vec(pixels, size)
}

/// The card as an RGB PNG: it is opaque, so premultiplied pixels are the colours themselves.
fn png(pixmap: &Pixmap) -> Result<Vec<u8>, String> {
    let rgb: Vec<u8> = pixmap.data().chunks_exact(4).flat_map(|pixel| [pixel[0], pixel[1], pixel[2]]).collect();
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(&rgb, pixmap.width(), pixmap.height(), image::ExtendedColorType::Rgb8)
        .map_err(|error| error.to_string())?;
    Ok(bytes)
}
