// Package fft is the real fast Fourier transform of a power-of-two length,
// in place with one scratch array: FFTPACK's radix-2 and radix-4 passes as
// gonum's dsp/fourier translates them, so the results are the same bits as
// fourier.FFT's Coefficients and Sequence with a fraction of the memory.
//
// It is not a general FFT (no other lengths, no complex input) and holds no
// statistics: analysis's ACF is its caller.
package fft
