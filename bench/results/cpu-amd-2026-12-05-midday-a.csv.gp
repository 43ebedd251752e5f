# Charts of the tilejit-bench run in bench/results/cpu-amd-2026-12-05-midday-a.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-amd-2026-12-05-midday-a.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-amd-2026-12-05-midday-a.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 28.9877
64 27.0268
EOD
$t0_1 << EOD
64 35.2952
EOD
$t0_2 << EOD
64 59.7061
64 55.4864
EOD
$t0_3 << EOD
64 59.3659
EOD
$t0_4 << EOD
64 22.5678
EOD
$t0_5 << EOD
64 42.6544
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
64 6.61935
64 6.5984
EOD
$t1_1 << EOD
64 6.03433
EOD
$t1_2 << EOD
64 11.6543
64 11.6839
EOD
$t1_3 << EOD
64 11.8568
EOD
$t1_4 << EOD
64 5.57054
EOD
$t1_5 << EOD
64 10.8669
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
64 8.43434
64 8.43438
EOD
$t2_1 << EOD
64 11.4333
EOD
$t2_2 << EOD
64 9.42661
64 9.67515
EOD
$t2_3 << EOD
64 16.983
EOD
$t2_4 << EOD
64 5.97726
EOD
$t2_5 << EOD
64 10.0546
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
64 26.0947
64 26.9559
EOD
$t3_1 << EOD
64 29.4982
EOD
$t3_2 << EOD
64 54.9333
64 50.668
EOD
$t3_3 << EOD
64 57.1311
EOD
$t3_4 << EOD
64 24.5405
EOD
$t3_5 << EOD
64 48.1616
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
"cpu/sum: tilejit width-1, 1 thread" 1.21759
"cpu/sum: tilejit width-1, 2 threads" 0.994303
"cpu/sum: tilejit cooperative, 1 thread" 0.835017
"cpu/sum: tilejit cooperative, 2 threads" 0.768735
"cpu/histogram: tilejit width-1, 1 thread" 0.911619
"cpu/histogram: tilejit width-1, 2 threads" 1.01737
"cpu/histogram: tilejit cooperative, 1 thread" 0.844225
"cpu/histogram: tilejit cooperative, 2 threads" 0.930078
"cpu/compact: tilejit width-1, 1 thread" 1.35556
"cpu/compact: tilejit width-1, 2 threads" 1.8016
"cpu/compact: tilejit cooperative, 1 thread" 0.708679
"cpu/compact: tilejit cooperative, 2 threads" 1.03922
"cpu/copy: tilejit width-1, 1 thread" 1.13043
"cpu/copy: tilejit width-1, 2 threads" 1.04001
"cpu/copy: tilejit cooperative, 1 thread" 0.910395
"cpu/copy: tilejit cooperative, 2 threads" 0.950533
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
"ptx/store_doubled_thread_indices" 17.9657
"ptx/multiply_elements" 13.7576
"ptx/row_products" 10.1488
"ptx/replace_rows" 11.1096
"ptx/histogram" 12.0337
"ptx/compact_values" 7.01846
"ptx/large" 1.75787
"ptx-first/store_doubled_thread_indices" 7.28325
"ptx-first/multiply_elements" 7.44399
"ptx-first/row_products" 6.33999
"ptx-first/replace_rows" 6.12254
"ptx-first/histogram" 6.28571
"ptx-first/compact_values" 5.45708
"ptx-first/large" 1.58374
"disk/store_doubled_thread_indices" 2.63316
"disk/store_doubled_thread_indices (CPU)" 7.77764
"disk/multiply_elements" 2.78255
"disk/multiply_elements (CPU)" 8.61832
"disk/row_products" 2.89216
"disk/row_products (CPU)" 7.27331
"disk/replace_rows" 3.04166
"disk/replace_rows (CPU)" 9.34454
"disk/histogram" 2.80039
"disk/histogram (CPU)" 7.75651
"disk/compact_values" 2.96488
"disk/compact_values (CPU)" 8.95049
"disk/large" 5.77228
"disk/large (CPU)" 34.928
"source/store_doubled_thread_indices" 18.7251
"source-first/store_doubled_thread_indices" 8.49544
"source/multiply_elements" 13.8847
"source-first/multiply_elements" 7.67201
"source/row_products" 10.0108
"source-first/row_products" 6.31223
"source/replace_rows" 10.9458
"source-first/replace_rows" 6.87159
"source/histogram" 11.7328
"source-first/histogram" 6.98289
"source/compact_values" 6.92527
"source-first/compact_values" 5.10106
"source/large" 1.73246
"source-first/large" 1.58565
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
