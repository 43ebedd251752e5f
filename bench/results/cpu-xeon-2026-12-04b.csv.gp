# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04b.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04b.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04b.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 29.9775
64 27.1423
EOD
$t0_1 << EOD
64 27.8102
EOD
$t0_2 << EOD
4 35.2093
64 49.9329
EOD
$t0_3 << EOD
64 52.9034
EOD
$t0_4 << EOD
4 29.562
EOD
$t0_5 << EOD
4 48.463
EOD
set output outdir.'/throughput_cpu_sum.png'
set title 'cpu/sum: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t0_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t0_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t0_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t0_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t0_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t0_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/histogram
$t1_0 << EOD
4 6.59295
64 4.63216
EOD
$t1_1 << EOD
64 4.07983
EOD
$t1_2 << EOD
4 8.93397
64 9.37984
EOD
$t1_3 << EOD
64 8.23079
EOD
$t1_4 << EOD
4 3.06647
EOD
$t1_5 << EOD
4 5.01557
EOD
set output outdir.'/throughput_cpu_histogram.png'
set title 'cpu/histogram: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t1_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t1_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t1_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t1_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t1_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t1_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/compact
$t2_0 << EOD
4 5.71401
64 4.52765
EOD
$t2_1 << EOD
64 4.08151
EOD
$t2_2 << EOD
4 6.79827
64 6.65323
EOD
$t2_3 << EOD
64 8.58151
EOD
$t2_4 << EOD
4 4.17319
EOD
$t2_5 << EOD
4 6.56947
EOD
set output outdir.'/throughput_cpu_compact.png'
set title 'cpu/compact: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t2_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t2_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t2_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t2_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t2_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t2_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- cpu/copy
$t3_0 << EOD
4 27.7772
64 13.9136
EOD
$t3_1 << EOD
64 13.3574
EOD
$t3_2 << EOD
4 36.2624
64 38.0749
EOD
$t3_3 << EOD
64 36.7598
EOD
$t3_4 << EOD
4 18.6396
EOD
$t3_5 << EOD
4 28.006
EOD
set output outdir.'/throughput_cpu_copy.png'
set title 'cpu/copy: throughput against input size'
set xlabel 'input (MiB)'
set ylabel 'GB/s'
set logscale x 2
unset logscale y
set key outside right
set grid
plot $t3_0 using 1:2 with linespoints title 'C -O3 -march=native, 1 thread', \
     $t3_1 using 1:2 with linespoints title 'tilejit width-1, 1 thread', \
     $t3_2 using 1:2 with linespoints title 'C -O3 -march=native, 2 threads', \
     $t3_3 using 1:2 with linespoints title 'tilejit width-1, 2 threads', \
     $t3_4 using 1:2 with linespoints title 'tilejit cooperative, 1 thread', \
     $t3_5 using 1:2 with linespoints title 'tilejit cooperative, 2 threads'

# ---- ratios to the reference
$ratio_throughput << EOD
"cpu/sum: tilejit width-1, 1 thread" 1.02461
"cpu/sum: tilejit width-1, 2 threads" 1.05949
"cpu/sum: tilejit cooperative, 1 thread" 0.98614
"cpu/sum: tilejit cooperative, 2 threads" 1.37643
"cpu/histogram: tilejit width-1, 1 thread" 0.880762
"cpu/histogram: tilejit width-1, 2 threads" 0.877498
"cpu/histogram: tilejit cooperative, 1 thread" 0.465114
"cpu/histogram: tilejit cooperative, 2 threads" 0.561404
"cpu/compact: tilejit width-1, 1 thread" 0.901461
"cpu/compact: tilejit width-1, 2 threads" 1.28983
"cpu/compact: tilejit cooperative, 1 thread" 0.730342
"cpu/compact: tilejit cooperative, 2 threads" 0.966344
"cpu/copy: tilejit width-1, 1 thread" 0.960026
"cpu/copy: tilejit width-1, 2 threads" 0.965459
"cpu/copy: tilejit cooperative, 1 thread" 0.671041
"cpu/copy: tilejit cooperative, 2 threads" 0.772316
EOD
set output outdir.'/ratio_throughput.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_throughput using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0

# ---- ratios to the reference
$ratio_compile << EOD
"ptx/store_doubled_thread_indices" 14.6537
"ptx/multiply_elements" 11.9308
"ptx/row_products" 8.15031
"ptx/replace_rows" 9.96693
"ptx/histogram" 11.2234
"ptx/compact_values" 6.71395
"ptx/large" 1.66901
"ptx-first/store_doubled_thread_indices" 7.62211
"ptx-first/multiply_elements" 8.18008
"ptx-first/row_products" 6.02215
"ptx-first/replace_rows" 6.33511
"ptx-first/histogram" 7.36135
"ptx-first/compact_values" 5.27849
"ptx-first/large" 1.52049
"disk/store_doubled_thread_indices" 2.34785
"disk/store_doubled_thread_indices (CPU)" 7.85789
"disk/multiply_elements" 2.68239
"disk/multiply_elements (CPU)" 7.40756
"disk/row_products" 3.29637
"disk/row_products (CPU)" 7.4139
"disk/replace_rows" 3.07359
"disk/replace_rows (CPU)" 9.72718
"disk/histogram" 2.88254
"disk/histogram (CPU)" 7.88783
"disk/compact_values" 3.21725
"disk/compact_values (CPU)" 10.1421
"disk/large" 7.27437
"disk/large (CPU)" 35.9354
"source/store_doubled_thread_indices" 14.1524
"source-first/store_doubled_thread_indices" 8.57516
"source/multiply_elements" 11.6878
"source-first/multiply_elements" 8.07314
"source/row_products" 8.00515
"source-first/row_products" 6.12602
"source/replace_rows" 9.58535
"source-first/replace_rows" 7.23333
"source/histogram" 10.7743
"source-first/histogram" 8.26043
"source/compact_values" 6.77838
"source-first/compact_values" 4.9661
"source/large" 1.63412
"source-first/large" 1.47994
EOD
set output outdir.'/ratio_compile.png'
set title 'speed relative to the reference (reference time / tilejit time; above 1: faster)'
unset logscale x
set logscale y
set xlabel ''
set ylabel 'ratio'
set style fill solid 0.6
set boxwidth 0.7
set xtics rotate by -90 font ',8'
unset key
set grid y
set bmargin 18
set offsets 0.5, 0.5, graph 0.1, 0
plot $ratio_compile using 0:2:xtic(1) with boxes, 1 with lines lt 0
set xtics norotate font ''
set bmargin
set offsets 0, 0, 0, 0
