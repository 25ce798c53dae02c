"""Development tools outside the run-time libraries: data splits, training and evaluation."""
