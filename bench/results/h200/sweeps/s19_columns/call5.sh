start=$(date +%s)
OUT=$OUT bash bench/gpu_report.sh > $OUT/report_log.txt 2>&1
echo "report took $(( $(date +%s) - start )) s" >> $OUT/report_log.txt
