"""Development tools beside the run-time libraries: evaluation, fitting, rendered scenes."""
