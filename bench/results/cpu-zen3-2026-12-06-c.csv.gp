# Charts of the tilejit-bench run in bench/results/cpu-zen3-2026-12-06-c.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen3-2026-12-06-c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen3-2026-12-06-c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 23.0199
64 17.8693
EOD
$t0_1 << EOD
64 22.0557
EOD
$t0_2 << EOD
64 36.9802
64 32.8704
EOD
$t0_3 << EOD
64 35.8948
EOD
$t0_4 << EOD
64 15.7549
EOD
$t0_5 << EOD
64 29.7939
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
64 5.71447
64 5.73075
EOD
$t1_1 << EOD
64 7.01722
EOD
$t1_2 << EOD
64 9.54772
64 9.5143
EOD
$t1_3 << EOD
64 13.7879
EOD
$t1_4 << EOD
64 5.76641
EOD
$t1_5 << EOD
64 11.5099
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
64 5.98804
64 6.1955
EOD
$t2_1 << EOD
64 8.46734
EOD
$t2_2 << EOD
64 9.50578
64 9.48801
EOD
$t2_3 << EOD
64 15.7809
EOD
$t2_4 << EOD
64 5.79413
EOD
$t2_5 << EOD
64 10.8138
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
64 20.7486
64 17.8237
EOD
$t3_1 << EOD
64 22.0984
EOD
$t3_2 << EOD
64 29.3425
64 29.2452
EOD
$t3_3 << EOD
64 30.0802
EOD
$t3_4 << EOD
64 18.7823
EOD
$t3_5 << EOD
64 28.8241
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
"cpu/sum: tilejit width-1, 1 thread" 0.958113
"cpu/sum: tilejit width-1, 2 threads" 0.97065
"cpu/sum: tilejit cooperative, 1 thread" 0.881675
"cpu/sum: tilejit cooperative, 2 threads" 0.906406
"cpu/histogram: tilejit width-1, 1 thread" 1.22797
"cpu/histogram: tilejit width-1, 2 threads" 1.44411
"cpu/histogram: tilejit cooperative, 1 thread" 1.00622
"cpu/histogram: tilejit cooperative, 2 threads" 1.20975
"cpu/compact: tilejit width-1, 1 thread" 1.41404
"cpu/compact: tilejit width-1, 2 threads" 1.66014
"cpu/compact: tilejit cooperative, 1 thread" 0.935217
"cpu/compact: tilejit cooperative, 2 threads" 1.13973
"cpu/copy: tilejit width-1, 1 thread" 1.06506
"cpu/copy: tilejit width-1, 2 threads" 1.02514
"cpu/copy: tilejit cooperative, 1 thread" 1.05378
"cpu/copy: tilejit cooperative, 2 threads" 0.985603
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
"ptx/store_doubled_thread_indices" 18.9711
"ptx/multiply_elements" 13.5689
"ptx/row_products" 10.3038
"ptx/replace_rows" 12.2362
"ptx/histogram" 13.0363
"ptx/compact_values" 7.58171
"ptx/large" 1.67149
"ptx-first/store_doubled_thread_indices" 7.99411
"ptx-first/multiply_elements" 7.71118
"ptx-first/row_products" 6.73162
"ptx-first/replace_rows" 6.7973
"ptx-first/histogram" 6.98323
"ptx-first/compact_values" 5.47967
"ptx-first/large" 1.56192
"disk/store_doubled_thread_indices" 2.44604
"disk/store_doubled_thread_indices (CPU)" 8.23711
"disk/multiply_elements" 2.69698
"disk/multiply_elements (CPU)" 7.10125
"disk/row_products" 3.26092
"disk/row_products (CPU)" 7.64898
"disk/replace_rows" 2.83141
"disk/replace_rows (CPU)" 8.73995
"disk/histogram" 2.6032
"disk/histogram (CPU)" 7.9589
"disk/compact_values" 3.17195
"disk/compact_values (CPU)" 12.9546
"disk/large" 5.79513
"disk/large (CPU)" 33.895
"source/store_doubled_thread_indices" 12.3926
"source-first/store_doubled_thread_indices" 8.29746
"source/multiply_elements" 11.8457
"source-first/multiply_elements" 7.96756
"source/row_products" 10.4523
"source-first/row_products" 6.45776
"source/replace_rows" 11.2823
"source-first/replace_rows" 6.89136
"source/histogram" 13.4345
"source-first/histogram" 6.81534
"source/compact_values" 7.91265
"source-first/compact_values" 5.2636
"source/large" 1.65499
"source-first/large" 1.54004
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
