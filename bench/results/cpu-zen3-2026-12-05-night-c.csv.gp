# Charts of the tilejit-bench run in bench/results/cpu-zen3-2026-12-05-night-c.csv (AMD EPYC); the data is inline.
# Render: tools/plot.sh bench/results/cpu-zen3-2026-12-05-night-c.csv [OUTDIR], or gnuplot -e "outdir='OUTDIR'" bench/results/cpu-zen3-2026-12-05-night-c.csv.gp
if (!exists('outdir')) outdir = '.'
if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1400,800 noenhanced
} else {
    set terminal png size 1400,800 noenhanced
}

# ---- cpu/sum
$t0_0 << EOD
64 19.3334
64 16.0885
EOD
$t0_1 << EOD
64 18.3352
EOD
$t0_2 << EOD
64 29.6393
64 23.6711
EOD
$t0_3 << EOD
64 28.9627
EOD
$t0_4 << EOD
64 11.7484
EOD
$t0_5 << EOD
64 22.2838
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
64 4.94781
64 5.41624
EOD
$t1_1 << EOD
64 5.93893
EOD
$t1_2 << EOD
64 8.79197
64 5.62362
EOD
$t1_3 << EOD
64 11.883
EOD
$t1_4 << EOD
64 5.69826
EOD
$t1_5 << EOD
64 8.06123
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
64 5.82036
64 5.73952
EOD
$t2_1 << EOD
64 6.90832
EOD
$t2_2 << EOD
64 8.21506
64 6.57782
EOD
$t2_3 << EOD
64 11.6237
EOD
$t2_4 << EOD
64 4.33381
EOD
$t2_5 << EOD
64 7.07385
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
64 15.7875
64 15.4905
EOD
$t3_1 << EOD
64 16.9075
EOD
$t3_2 << EOD
64 23.1034
64 22.0696
EOD
$t3_3 << EOD
64 24.4007
EOD
$t3_4 << EOD
64 15.6867
EOD
$t3_5 << EOD
64 21.9331
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
"cpu/sum: tilejit width-1, 1 thread" 0.948372
"cpu/sum: tilejit width-1, 2 threads" 0.977172
"cpu/sum: tilejit cooperative, 1 thread" 0.730232
"cpu/sum: tilejit cooperative, 2 threads" 0.941392
"cpu/histogram: tilejit width-1, 1 thread" 1.20031
"cpu/histogram: tilejit width-1, 2 threads" 1.35157
"cpu/histogram: tilejit cooperative, 1 thread" 1.05207
"cpu/histogram: tilejit cooperative, 2 threads" 1.43346
"cpu/compact: tilejit width-1, 1 thread" 1.18692
"cpu/compact: tilejit width-1, 2 threads" 1.41493
"cpu/compact: tilejit cooperative, 1 thread" 0.755082
"cpu/compact: tilejit cooperative, 2 threads" 1.07541
"cpu/copy: tilejit width-1, 1 thread" 1.07094
"cpu/copy: tilejit width-1, 2 threads" 1.05616
"cpu/copy: tilejit cooperative, 1 thread" 1.01266
"cpu/copy: tilejit cooperative, 2 threads" 0.993818
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
"ptx/store_doubled_thread_indices" 18.5711
"ptx/multiply_elements" 14.1099
"ptx/row_products" 9.80253
"ptx/replace_rows" 11.8464
"ptx/histogram" 13.5316
"ptx/compact_values" 7.57034
"ptx/large" 1.68286
"ptx-first/store_doubled_thread_indices" 8.04108
"ptx-first/multiply_elements" 7.85278
"ptx-first/row_products" 6.21117
"ptx-first/replace_rows" 7.03884
"ptx-first/histogram" 7.21907
"ptx-first/compact_values" 6.58382
"ptx-first/large" 1.14031
"disk/store_doubled_thread_indices" 2.32058
"disk/store_doubled_thread_indices (CPU)" 7.92106
"disk/multiply_elements" 2.4339
"disk/multiply_elements (CPU)" 7.42967
"disk/row_products" 3.21236
"disk/row_products (CPU)" 7.99621
"disk/replace_rows" 2.68599
"disk/replace_rows (CPU)" 9.90255
"disk/histogram" 2.80864
"disk/histogram (CPU)" 8.32514
"disk/compact_values" 3.23368
"disk/compact_values (CPU)" 15.3143
"disk/large" 7.84045
"disk/large (CPU)" 34.4428
"source/store_doubled_thread_indices" 17.1266
"source-first/store_doubled_thread_indices" 7.73489
"source/multiply_elements" 13.4316
"source-first/multiply_elements" 7.59471
"source/row_products" 9.97624
"source-first/row_products" 6.35568
"source/replace_rows" 11.0226
"source-first/replace_rows" 6.80391
"source/histogram" 10.8394
"source-first/histogram" 7.80004
"source/compact_values" 7.36056
"source-first/compact_values" 6.52036
"source/large" 1.53654
"source-first/large" 1.44857
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
