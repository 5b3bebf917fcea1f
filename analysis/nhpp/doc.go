// Package nhpp estimates a localized (non-homogeneous Poisson) update rate
// for one page, SPEC §4.4: it cuts the update times into consistent windows
// in which the mean time between updates rises, falls or stays flat, fits a
// power-law process (Weibull MLE, its bias corrections, the Duane plot) and
// the homogeneous baselines in each window, and scores them by rebuilding
// the update times and by predicting the next update.
//
// It is not a renewal-process estimator (those are replay's M1–M6) and it
// does not sample: every estimator here sees the update times themselves.
package nhpp
