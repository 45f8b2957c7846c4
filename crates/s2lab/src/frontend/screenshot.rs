//! The console's picture as an 8-bit RGB PNG, written atomically (`outfile`).

use std::path::Path;

use anyhow::{Context, Result};
use megadrive::frontend::FrameView;

pub fn write_png(frame: &FrameView<'_>, path: &Path) -> Result<()> {
    let data: Vec<u8> = frame
        .to_rgb()
        .into_iter()
        .flat_map(|p| [(p >> 16) as u8, (p >> 8) as u8, p as u8])
        .collect();
    outfile::write_with(path, |file| {
        let mut enc = png::Encoder::new(file, frame.width as u32, frame.height as u32);
        enc.set_color(png::ColorType::Rgb);
        enc.set_depth(png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(&data)?;
        w.finish()?;
        Ok(())
    })
    .with_context(|| format!("writing {}", path.display()))
}
