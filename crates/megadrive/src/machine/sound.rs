//! The machine's sound: turning it on and off, the sound thread, and the samples the host takes.

use super::Machine;
use crate::frontend::AudioSink;
use crate::sound::mixer::{AudioOut, DEFAULT_RATE, mix_and_resample};
use crate::sound::thread::Synth;

impl Machine {
    /// Starts producing sound at `rate` Hz (interleaved stereo i16, see
    /// [`Machine::take_audio`]). Emulation is the same with or without sound.
    pub fn enable_audio(&mut self, rate: u32) {
        self.stop_sound_thread();
        let mclk = self.region.master_clock_hz();
        self.audio = Some(Box::new(AudioOut::new(mclk, rate)));
        let sys = &mut self.bus.sys;
        sys.ym.render = true;
        sys.psg.render = true;
        sys.ym.out.clear();
        sys.psg.out.clear();
        self.start_sound_thread();
    }

    /// Stops producing sound.
    pub fn disable_audio(&mut self) {
        self.stop_sound_thread();
        self.audio = None;
        let sys = &mut self.bus.sys;
        sys.ym.render = false;
        sys.psg.render = false;
        sys.ym.out = Vec::new();
        sys.psg.out = Vec::new();
    }

    /// Whether sound is synthesised on a second thread while it is on (the default), or on the
    /// caller's thread as the chips are written. The samples are the same either way; the
    /// thread lets synthesis overlap emulation on another core.
    pub fn set_sound_thread(&mut self, on: bool) {
        self.bus.sys.sound_thread.allowed = on;
        if on {
            self.start_sound_thread();
        } else {
            self.stop_sound_thread();
        }
    }

    /// Whether sound may be synthesised on a second thread ([`Machine::set_sound_thread`]).
    pub fn sound_thread(&self) -> bool {
        self.bus.sys.sound_thread.allowed
    }

    /// Hands synthesis to the sound thread, when sound is on and the thread allowed: the
    /// thread takes the chips and the output stage as they are; the machine's chips keep
    /// running what the game sees (as headless runs them) and log their calls.
    fn start_sound_thread(&mut self) {
        let sys = &mut self.bus.sys;
        let Some(audio) = self.audio.as_ref() else {
            return;
        };
        if !sys.sound_thread.allowed || sys.sound_thread.active() {
            return;
        }
        let synth = Box::new(Synth {
            ym: sys.ym.clone(),
            psg: sys.psg.clone(),
            out: (**audio).clone(),
        });
        for (render, calls) in [
            (&mut sys.ym.render, &mut sys.ym.calls.on),
            (&mut sys.psg.render, &mut sys.psg.calls.on),
        ] {
            *render = false;
            *calls = true;
        }
        sys.ym.out = Vec::new();
        sys.psg.out = Vec::new();
        sys.sound_thread.begin(synth);
    }

    /// Takes synthesis back from the sound thread: the machine's chips and output stage become
    /// the thread's, brought up to date, as they would be had they synthesised all along.
    fn stop_sound_thread(&mut self) {
        let sys = &mut self.bus.sys;
        let ym_calls = std::mem::take(&mut sys.ym.calls.calls);
        let psg_calls = std::mem::take(&mut sys.psg.calls.calls);
        let Some(synth) = sys.sound_thread.end(ym_calls, psg_calls) else {
            return;
        };
        let Synth { ym, psg, out } = *synth;
        sys.ym = ym;
        sys.psg = psg;
        self.audio = Some(Box::new(out));
    }

    /// After a state was loaded: the sound thread continues from the loaded chips (the
    /// calls not shipped and the samples not taken are dropped, as the machine's own chips
    /// drop theirs).
    pub(crate) fn reseed_sound_thread(&mut self) {
        let sys = &mut self.bus.sys;
        if !sys.sound_thread.active() {
            return;
        }
        sys.ym.calls.calls.clear();
        sys.psg.calls.calls.clear();
        let (mut ym, mut psg) = (sys.ym.clone(), sys.psg.clone());
        ym.render = true;
        psg.render = true;
        ym.calls.on = false;
        psg.calls.on = false;
        sys.sound_thread.reseed(ym, psg);
    }

    /// The host rate, when sound is on.
    pub fn audio_rate(&self) -> Option<u32> {
        self.audio.as_ref().map(|a| a.rate)
    }

    /// Appends the sound produced since the last call (interleaved stereo at
    /// [`Machine::audio_rate`]); nothing when sound is off.
    pub fn take_audio(&mut self, out: &mut Vec<i16>) {
        let Some(a) = self.audio.as_mut() else {
            return;
        };
        let sys = &mut self.bus.sys;
        let now = sys.now;
        if sys.sound_thread.active() {
            // The machine's chips run their timers as a status read would.
            sys.ym.sync(now);
            sys.psg.sync(now);
            sys.sound_thread
                .take(now, &mut sys.ym.calls, &mut sys.psg.calls, out);
        } else {
            mix_and_resample(&mut sys.ym, &mut sys.psg, a, now, out);
        }
    }

    /// Appends the sound the sound thread has finished: the samples up to the scheduler's
    /// last 64-line catch-up but one (64 to 127 lines, 4 to 8 ms, behind the clock), so the
    /// caller's thread synthesises only a batch the worker has not started (it is woken every
    /// second shipment) and seldom waits. Which samples come back depends on the emulated clock alone,
    /// and the samples of successive calls, then a [`Machine::take_audio`] for the rest,
    /// are those of successive `take_audio`s. With the thread off (or sound off), the same
    /// as `take_audio`. The samples not taken yet are lost on a state load, as `take_audio`'s
    /// are.
    pub fn take_audio_ready(&mut self, out: &mut Vec<i16>) {
        let sys = &mut self.bus.sys;
        if !sys.sound_thread.active() {
            self.take_audio(out);
            return;
        }
        // The machine's chips run their timers as a status read would (as `take_audio`).
        let now = sys.now;
        sys.ym.sync(now);
        sys.psg.sync(now);
        sys.sound_thread.take_ready(out);
    }

    /// Hands the sound produced since the last call to `sink`.
    pub fn drain_audio(&mut self, sink: &mut dyn AudioSink) {
        let Some(mut buf) = self.audio.as_mut().map(|a| std::mem::take(&mut a.scratch)) else {
            return;
        };
        buf.clear();
        self.take_audio(&mut buf);
        let rate = self.audio_rate().unwrap_or(DEFAULT_RATE);
        sink.samples(rate, &buf);
        if let Some(a) = self.audio.as_mut() {
            a.scratch = buf;
        }
    }
}
