# Charts of the tilejit-bench run in bench/results/cpu-xeon-2026-12-04f.csv (Intel(R) Xeon(R) Processor); the data is inline.
# Render: tools/plot.sh bench/results/cpu-xeon-2026-12-04f.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-xeon-2026-12-04f.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
4 30.8877
64 29.0777
EOD
$t0_1 << EOD
64 28.395
EOD
$t0_2 << EOD
4 30.6338
64 48.6031
EOD
$t0_3 << EOD
64 49.4232
EOD
$t0_4 << EOD
4 29.3981
EOD
$t0_5 << EOD
4 46.4308
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
4 4.37978
64 4.91441
EOD
$t1_1 << EOD
64 4.25104
EOD
$t1_2 << EOD
4 9.10925
64 8.90524
EOD
$t1_3 << EOD
64 7.94955
EOD
$t1_4 << EOD
4 2.77997
EOD
$t1_5 << EOD
4 8.48727
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
4 5.30115
64 4.74489
EOD
$t2_1 << EOD
64 4.95866
EOD
$t2_2 << EOD
4 5.32191
64 7.10997
EOD
$t2_3 << EOD
64 9.81332
EOD
$t2_4 << EOD
4 4.32722
EOD
$t2_5 << EOD
4 6.23694
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
4 27.3466
64 13.7295
EOD
$t3_1 << EOD
64 13.0326
EOD
$t3_2 << EOD
4 33.7327
64 38.7885
EOD
$t3_3 << EOD
64 37.1371
EOD
$t3_4 << EOD
4 19.9501
EOD
$t3_5 << EOD
4 32.5947
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
"cpu/sum: tilejit width-1, 1 thread" 0.976524
"cpu/sum: tilejit width-1, 2 threads" 1.01688
"cpu/sum: tilejit cooperative, 1 thread" 0.951774
"cpu/sum: tilejit cooperative, 2 threads" 1.51567
"cpu/histogram: tilejit width-1, 1 thread" 0.865016
"cpu/histogram: tilejit width-1, 2 threads" 0.892683
"cpu/histogram: tilejit cooperative, 1 thread" 0.634728
"cpu/histogram: tilejit cooperative, 2 threads" 0.93172
"cpu/compact: tilejit width-1, 1 thread" 1.04505
"cpu/compact: tilejit width-1, 2 threads" 1.38022
"cpu/compact: tilejit cooperative, 1 thread" 0.816279
"cpu/compact: tilejit cooperative, 2 threads" 1.17194
"cpu/copy: tilejit width-1, 1 thread" 0.949241
"cpu/copy: tilejit width-1, 2 threads" 0.957426
"cpu/copy: tilejit cooperative, 1 thread" 0.729527
"cpu/copy: tilejit cooperative, 2 threads" 0.966265
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
"ptx/store_doubled_thread_indices" 15.8189
"ptx/multiply_elements" 10.0477
"ptx/row_products" 8.1165
"ptx/replace_rows" 9.8085
"ptx/histogram" 11.8873
"ptx/compact_values" 6.99085
"ptx/large" 1.51199
"ptx-first/store_doubled_thread_indices" 7.684
"ptx-first/multiply_elements" 8.67941
"ptx-first/row_products" 5.15451
"ptx-first/replace_rows" 7.04529
"ptx-first/histogram" 10.7069
"ptx-first/compact_values" 5.15603
"ptx-first/large" 1.67556
"disk/store_doubled_thread_indices" 3.45148
"disk/store_doubled_thread_indices (CPU)" 8.03755
"disk/multiply_elements" 3.39569
"disk/multiply_elements (CPU)" 6.18175
"disk/row_products" 3.29743
"disk/row_products (CPU)" 6.66455
"disk/replace_rows" 2.61996
"disk/replace_rows (CPU)" 9.52368
"disk/histogram" 2.31459
"disk/histogram (CPU)" 7.57987
"disk/compact_values" 2.36461
"disk/compact_values (CPU)" 10.381
"disk/large" 6.24646
"disk/large (CPU)" 26.8484
"source/store_doubled_thread_indices" 15.7084
"source-first/store_doubled_thread_indices" 8.62814
"source/multiply_elements" 8.976
"source-first/multiply_elements" 7.77336
"source/row_products" 8.08947
"source-first/row_products" 6.91187
"source/replace_rows" 7.88361
"source-first/replace_rows" 7.38187
"source/histogram" 13.1165
"source-first/histogram" 9.32391
"source/compact_values" 6.30183
"source-first/compact_values" 3.4714
"source/large" 1.89681
"source-first/large" 1.56452
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
