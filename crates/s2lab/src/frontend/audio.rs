//! `cpal` audio output fed from the emulator through a small ring buffer.
//!
//! The emulator pushes interleaved stereo i16 samples at the device's rate (the megadrive
//! crate resamples to it); the device's callback pops them, repeating silence on underrun.
//! The play loop paces emulation by the buffer's fill level, so the audio clock drives it.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use anyhow::{Context, Result, anyhow, bail};
use cpal::traits::{DeviceTrait, HostTrait, StreamTrait};
use cpal::{FromSample, SampleFormat, SizedSample, StreamConfig};
use megadrive::frontend::AudioSink;

#[derive(Default)]
struct Ring {
    samples: VecDeque<i16>,
    underruns: u64,
}

pub struct AudioOutput {
    _stream: cpal::Stream,
    ring: Arc<Mutex<Ring>>,
    /// Device rate in Hz.
    pub rate: u32,
    /// Most stereo frames kept buffered (older ones are dropped).
    max_frames: usize,
}

impl AudioOutput {
    /// Opens the default output device with ALSA's own error printing sent to a buffer that is
    /// thrown away: on a machine without a sound card alsa-lib writes a screenful of
    /// "ALSA lib pcm..." lines to stderr while cpal probes, and the caller says it in one.
    /// (alsa-lib's handler is per thread; cpal opens the device on this one.)
    pub fn open_quietly() -> Result<AudioOutput> {
        #[cfg(target_os = "linux")]
        let _quiet = alsa::Output::local_error_handler().ok();
        AudioOutput::open()
    }

    /// Opens the default output device at its default rate.
    pub fn open() -> Result<AudioOutput> {
        let host = cpal::default_host();
        let device = host
            .default_output_device()
            .ok_or_else(|| anyhow!("no audio output device found"))?;
        let config = device
            .default_output_config()
            .map_err(|e| anyhow!("the audio device has no usable output configuration: {e}"))?;
        let rate = config.sample_rate();
        let format = config.sample_format();
        let stream_config: StreamConfig = config.into();
        let ring = Arc::new(Mutex::new(Ring::default()));
        let stream = match format {
            SampleFormat::I16 => build::<i16>(&device, &stream_config, &ring),
            SampleFormat::I32 => build::<i32>(&device, &stream_config, &ring),
            SampleFormat::U16 => build::<u16>(&device, &stream_config, &ring),
            SampleFormat::F32 => build::<f32>(&device, &stream_config, &ring),
            SampleFormat::F64 => build::<f64>(&device, &stream_config, &ring),
            other => bail!("unsupported audio sample format {other}"),
        }
        .context("could not open the audio output stream")?;
        stream
            .play()
            .map_err(|e| anyhow!("could not start audio playback: {e}"))?;
        Ok(AudioOutput {
            _stream: stream,
            ring,
            rate,
            max_frames: rate as usize / 5,
        })
    }

    /// Stereo frames waiting to be played.
    pub fn buffered_frames(&self) -> usize {
        self.ring.lock().map(|r| r.samples.len() / 2).unwrap_or(0)
    }

    /// Times the device found the buffer empty.
    pub fn underruns(&self) -> u64 {
        self.ring.lock().map(|r| r.underruns).unwrap_or(0)
    }
}

fn build<T>(
    device: &cpal::Device,
    config: &StreamConfig,
    ring: &Arc<Mutex<Ring>>,
) -> Result<cpal::Stream>
where
    T: SizedSample + FromSample<i16>,
{
    let channels = config.channels.max(1) as usize;
    let ring = Arc::clone(ring);
    let stream = device
        .build_output_stream(
            *config,
            move |data: &mut [T], _| {
                let Ok(mut r) = ring.lock() else {
                    return;
                };
                let mut starved = false;
                for frame in data.chunks_mut(channels) {
                    let (l, rt) = if r.samples.len() >= 2 {
                        (
                            r.samples.pop_front().unwrap_or(0),
                            r.samples.pop_front().unwrap_or(0),
                        )
                    } else {
                        starved = true;
                        (0, 0)
                    };
                    for (i, s) in frame.iter_mut().enumerate() {
                        let v = match i {
                            0 => l,
                            1 => rt,
                            _ => ((l as i32 + rt as i32) / 2) as i16,
                        };
                        *s = T::from_sample(if channels == 1 {
                            ((l as i32 + rt as i32) / 2) as i16
                        } else {
                            v
                        });
                    }
                }
                if starved {
                    r.underruns += 1;
                }
            },
            {
                // Say a stream error once, not on every callback.
                let mut said = false;
                move |e| {
                    if !said {
                        eprintln!("audio: {e}");
                        said = true;
                    }
                }
            },
            None,
        )
        .map_err(|e| anyhow!("{e}"))?;
    Ok(stream)
}

impl AudioSink for AudioOutput {
    fn samples(&mut self, _rate: u32, interleaved: &[i16]) {
        let Ok(mut r) = self.ring.lock() else {
            return;
        };
        r.samples.extend(interleaved);
        let max = self.max_frames * 2;
        if r.samples.len() > max {
            let extra = r.samples.len() - max;
            r.samples.drain(..extra);
        }
    }
}
