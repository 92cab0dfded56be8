package bench

// EmulatorScale writes the emulator scenario's table.
func (r Report) EmulatorScale(runs []EmulatorScaleRun) {
	r.printf("## The emulator at scale: one list of N contacts with -data-dir\n\n")
	r.printf("`rms-emulator` as a separate process with `-data-dir`; one ADD import (identity column `email`) of a CSV of N rows with the 4 standard attributes, then: ")
	r.printf("SIGTERM once the data directory has settled (first stop), a second process that restores the directory (start to the first answered request), idles %s, changes 1 contact (time until the directory holds the change) and is stopped with nothing pending. ", emuScaleIdle)
	r.printf("Peak RSS is that second process's VmHWM over restore, idle and the save.\n\n")
	r.printf("| contacts | CSV | import | RSS after the import | first stop | data directory | restore | save of 1 change | stop, nothing pending | peak RSS: restore, idle, one save |\n")
	r.printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, e := range runs {
		r.printf("| %d | %s | %s | %s | %s | %s | **%s** | **%s** | **%s** | **%s** |\n", e.N, fileSize(e.CSVBytes), round(e.Import), mib(e.ImportRSS),
			round(e.FirstStop), fileSize(e.DirBytes), round(e.Restore), round(e.Save), round(e.Stop), mib(e.PeakRSS))
	}
	if len(runs) > 0 {
		r.printf("\nEmulator command: `%s`.\n", runs[0].Command)
	}
	r.printf("\n")
}
